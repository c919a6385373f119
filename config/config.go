// Package config reads every setting from the environment, in one place, with
// development defaults that production mode refuses.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/perfilseguro/perfilseguro/redisconn"
)

// Environments.
const (
	EnvDevelopment = "development"
	EnvTest        = "test"
	EnvProduction  = "production"
)

// DevSecret is the obviously-development default for SECRET_KEY; production refuses it.
const DevSecret = "dev-only-insecure-secret-do-not-use-in-production"

// DevAdminPassword is the admin password in development and test mode when ADMIN_PASSWORD_HASH
// is unset; its bcrypt hash is computed at start, so no hash of it is ever stored anywhere.
const DevAdminPassword = "admin-dev-only"

// Config is every setting of every process.
type Config struct {
	Env           string           // APP_ENV: development, test or production
	HTTPAddr      string           // HTTP_ADDR: where the API listens
	PublicBaseURL string           // PUBLIC_BASE_URL: absolute base for links, QR codes and callbacks
	DatabaseURL   string           // DATABASE_URL
	RedisURL      string           // REDIS_URL
	Redis         redisconn.Config // REDIS_URL, or REDIS_SENTINELS…, or REDIS_CLUSTER_NODES… (redisconn)

	// DatabaseReplicaURL (DATABASE_REPLICA_URL) is a read-only replica for the few reads that may
	// lag a second or two (postgres/replica.go); empty: everything on the leader.
	DatabaseReplicaURL string
	// DatabaseListenURL (DATABASE_LISTEN_URL) is where the public-record cache LISTENs for changes:
	// a direct or session-mode connection to the leader. It differs from DATABASE_URL only when the
	// pool goes through a transaction-mode PgBouncer, where a LISTEN would be lost; default: DATABASE_URL.
	DatabaseListenURL string
	// CredentialKeysPEM holds the verifiable-credential issuer keys (CREDENTIAL_ISSUER_KEYS_PEM):
	// PEM P-256 private keys, the first signs, the others are older ones still published.
	CredentialKeysPEM string
	// HeartbeatInterval is how often the scheduler proves the pipeline (SCHEDULER_HEARTBEAT_INTERVAL).
	HeartbeatInterval time.Duration
	// UNListSource is where the scheduler imports the UN Security Council Consolidated List from
	// (UN_LIST_SOURCE: a file path or an https URL); empty: the development fixture outside
	// production, no import in production (screening.DefaultUNSource).
	UNListSource string
	SecretKey    string // SECRET_KEY: HMAC key for codes and tokens
	// DocumentDataKey (DOCUMENT_DATA_KEY) encrypts the personal data read from identity documents
	// and keys their lookup hashes (secure.NewDocumentKey); empty outside production: a development
	// key generated once in DATA_DIR (secure.EnsureDevDocumentKey). Production refuses it missing.
	DocumentDataKey string
	AdminPassHash   string // ADMIN_PASSWORD_HASH: bcrypt/argon2id hash of the development password (development and test only; production refuses it)
	AdminPassDev    bool   // AdminPassHash is the hash of DevAdminPassword (development and test only)
	SupportEmail    string // SUPPORT_EMAIL
	// The privacy notice's responsible party (DECISIONS.md 'Privacy and accountability').
	LegalName     string        // LEGAL_NAME
	LegalAddress  string        // LEGAL_ADDRESS
	PrivacyEmail  string        // PRIVACY_EMAIL: where ARCO requests arrive by e-mail
	OnboardingURL string        // ONBOARDING_URL
	DataDir       string        // DATA_DIR: development certificates and keys
	ShutdownGrace time.Duration // SHUTDOWN_GRACE: how long in-flight work may take on SIGTERM
	// ShutdownDrain (SHUTDOWN_DRAIN) is how long the API keeps serving after SIGTERM while /readyz
	// says 503, so that the load balancer stops sending before the listener closes.
	ShutdownDrain time.Duration
	// OTPQueueBound (OTP_QUEUE_LATENCY_BOUND) is how old the oldest waiting job of the critical
	// queue (codes) may be before new sign-ups and code sends answer 503 instead of queueing more.
	OTPQueueBound time.Duration
	// AdmissionControl (ADMISSION_CONTROL, on by default) refuses requests at once with 503 when
	// the API is past capacity (api/admission.go); off only to measure the API without it.
	AdmissionControl bool
	// AdmissionCeiling (ADMISSION_LATENCY_CEILING, unset by default) bounds the average answer
	// time: past it the admission limit shrinks where that costs no throughput. Capacity needs no
	// setting (package admission learns it); this is an answer time an operator may promise.
	AdmissionCeiling time.Duration
	WorkerConc       int          // WORKER_CONCURRENCY
	MetricsAddr      string       // METRICS_ADDR: optional separate listener for /metrics
	RateLimits       RateLimits   // RATE_LIMIT_*: per-hour code limits; 0 keeps the API's default
	PublicLimits     PublicLimits // PUBLIC_*: limits of public lookups per address; 0 keeps the API's default
	// TRUSTED_PROXIES: load balancers whose X-Forwarded-For names the client (IPs or CIDR ranges,
	// comma-separated); empty: the TCP peer is the client.
	TrustedProxies []netip.Prefix

	WhatsApp WhatsApp
	SMS      SMS
	SMTP     SMTP
	Didit    Didit
	Payments Payments
	Apple    Apple
	Google   Google
	Verifier Verifier
}

// WhatsApp configures the WhatsApp Cloud API; empty token means the development inbox.
type WhatsApp struct {
	BaseURL, APIVersion, PhoneNumberID, AccessToken, OTPTemplate, InvitationTemplate, ReminderTemplate string
	PaymentTemplate, VoucherTemplate, Language                                                         string
}

// SMS configures Twilio; empty account means the development inbox.
type SMS struct{ BaseURL, AccountSID, AuthToken, From string }

// SMTP configures e-mail delivery; empty host means the development inbox.
type SMTP struct {
	Host, Username, Password, From, TLS string
	Port                                int
}

// Didit configures the biometric provider; empty API key means the local simulator.
type Didit struct{ BaseURL, APIKey, WorkflowID, WebhookSecret string }

// Payments configures the plans people buy before the biometric check (DECISIONS.md).
// Enabled false (PAYMENTS=off) makes every validation free and hides every price; an empty
// Stripe secret key means the local checkout stand-in (refused in production).
type Payments struct {
	Enabled                                             bool
	StripeBaseURL, StripeSecretKey, StripeWebhookSecret string
}

// Apple configures Apple Wallet signing; empty certificate means a generated development chain.
// The APNs key (token-based authentication) pushes pass updates; empty means the development inbox.
type Apple struct {
	PassTypeID, TeamID, CertPEM, KeyPEM, WWDRPEM string
	APNsKeyID, APNsKeyPEM, APNsBaseURL           string
}

// Verifier is the certificate that names this service to wallets when partners ask for a
// presentation (OpenID4VP, client identifier x509_san_dns): VERIFIER_CERT_PEM is the chain, leaf
// first, whose leaf names the host of PUBLIC_BASE_URL as a dNSName; VERIFIER_KEY_PEM is the
// leaf's P-256 key. Both empty: a self-signed development certificate made in DATA_DIR, and in
// production the presentation routes answer 503 (production never uses the development one).
type Verifier struct{ CertPEM, KeyPEM string }

// Google configures Google Wallet; empty service account means a generated development key.
type Google struct {
	IssuerID, ClassSuffix, ServiceAccountJSON string
	APIBaseURL, TokenURL                      string // the Wallet REST API and Google's OAuth token endpoint
}

// RateLimits overrides the API's per-hour limits on sending and verifying codes and on
// administrator sign-ins (0: the default).
type RateLimits struct {
	SendPerIP, SendPerPhone, SendPerEmail, VerifyPerIP, VerifyPerUser int
	// AdminLoginPerIP may only be raised outside production (the test suite signs in from one
	// address many times an hour); production refuses more than MaxAdminLoginsPerIP.
	AdminLoginPerIP int
	// PrivacyReadsPerUser limits a person's reads of their consents, requests, exports and
	// consultations (the load benchmark raises it: every request there is one person's).
	PrivacyReadsPerUser int
}

// MaxAdminLoginsPerIP is the administrator sign-ins per address and hour production allows.
const MaxAdminLoginsPerIP = 10

// PublicLimits overrides the limits of public lookups per client address (0: the default).
type PublicLimits struct {
	MissesPerMinute, MissBurst, HitsPerMinute, HitBurst int
}

// Load reads the environment through getenv (os.Getenv in production code).
func Load(getenv func(string) string) (Config, error) {
	get := func(key, def string) string {
		if v := strings.TrimSpace(getenv(key)); v != "" {
			return v
		}
		return def
	}
	c := Config{
		Env:               get("APP_ENV", EnvDevelopment),
		HTTPAddr:          get("HTTP_ADDR", ":8080"),
		PublicBaseURL:     strings.TrimRight(get("PUBLIC_BASE_URL", "http://localhost:8080"), "/"),
		DatabaseURL:       get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/perfilseguro?sslmode=disable"),
		RedisURL:          get("REDIS_URL", "redis://127.0.0.1:6379/0"),
		SecretKey:         get("SECRET_KEY", DevSecret),
		DocumentDataKey:   get("DOCUMENT_DATA_KEY", ""),
		CredentialKeysPEM: get("CREDENTIAL_ISSUER_KEYS_PEM", ""),
		AdminPassHash:     get("ADMIN_PASSWORD_HASH", ""),
		SupportEmail:      get("SUPPORT_EMAIL", "soporte@perfilseguro.mx"),
		LegalName:         get("LEGAL_NAME", "Perfil Seguro, S.A. de C.V."),
		LegalAddress:      get("LEGAL_ADDRESS", "Av. Paseo de la Reforma 000, Col. Juárez, Cuauhtémoc, 06600, Ciudad de México"),
		PrivacyEmail:      get("PRIVACY_EMAIL", "privacidad@perfilseguro.mx"),
		OnboardingURL:     get("ONBOARDING_URL", "/register"),
		DataDir:           get("DATA_DIR", ".dev"),
		MetricsAddr:       get("METRICS_ADDR", ""),
		WhatsApp: WhatsApp{
			BaseURL:            get("WHATSAPP_BASE_URL", "https://graph.facebook.com"),
			APIVersion:         get("WHATSAPP_API_VERSION", "v21.0"),
			PhoneNumberID:      get("WHATSAPP_PHONE_NUMBER_ID", ""),
			AccessToken:        get("WHATSAPP_ACCESS_TOKEN", ""),
			OTPTemplate:        get("WHATSAPP_OTP_TEMPLATE", "codigo_verificacion"),
			InvitationTemplate: get("WHATSAPP_INVITATION_TEMPLATE", "invitacion_perfil_seguro"),
			ReminderTemplate:   get("WHATSAPP_REMINDER_TEMPLATE", "recordatorio_vigencia"),
			PaymentTemplate:    get("WHATSAPP_PAYMENT_TEMPLATE", "pago_recibido"),
			VoucherTemplate:    get("WHATSAPP_VOUCHER_EXPIRED_TEMPLATE", "ficha_oxxo_vencida"),
			Language:           get("WHATSAPP_LANGUAGE", "es_MX"),
		},
		SMS: SMS{
			BaseURL:    get("TWILIO_BASE_URL", "https://api.twilio.com"),
			AccountSID: get("TWILIO_ACCOUNT_SID", ""),
			AuthToken:  get("TWILIO_AUTH_TOKEN", ""),
			From:       get("TWILIO_FROM", ""),
		},
		SMTP: SMTP{
			Host:     get("SMTP_HOST", ""),
			Username: get("SMTP_USERNAME", ""),
			Password: get("SMTP_PASSWORD", ""),
			From:     get("SMTP_FROM", "no-responder@perfilseguro.mx"),
			TLS:      get("SMTP_TLS", "starttls"),
		},
		Didit: Didit{
			BaseURL:       get("DIDIT_BASE_URL", "https://verification.didit.me"),
			APIKey:        get("DIDIT_API_KEY", ""),
			WorkflowID:    get("DIDIT_WORKFLOW_ID", ""),
			WebhookSecret: get("DIDIT_WEBHOOK_SECRET", ""),
		},
		Payments: Payments{
			StripeBaseURL:       get("STRIPE_BASE_URL", "https://api.stripe.com"),
			StripeSecretKey:     get("STRIPE_SECRET_KEY", ""),
			StripeWebhookSecret: get("STRIPE_WEBHOOK_SECRET", ""),
		},
		Apple: Apple{
			PassTypeID:  get("APPLE_PASS_TYPE_ID", "pass.mx.perfilseguro.dev"),
			TeamID:      get("APPLE_TEAM_ID", "DEVTEAM000"),
			CertPEM:     get("APPLE_PASS_CERT_PEM", ""),
			KeyPEM:      get("APPLE_PASS_KEY_PEM", ""),
			WWDRPEM:     get("APPLE_WWDR_PEM", ""),
			APNsKeyID:   get("APNS_KEY_ID", ""),
			APNsKeyPEM:  get("APNS_PRIVATE_KEY_PEM", ""),
			APNsBaseURL: get("APNS_BASE_URL", "https://api.push.apple.com"),
		},
		Verifier: Verifier{
			CertPEM: get("VERIFIER_CERT_PEM", ""),
			KeyPEM:  get("VERIFIER_KEY_PEM", ""),
		},
		Google: Google{
			IssuerID:           get("GOOGLE_WALLET_ISSUER_ID", "3388000000000000000"),
			ClassSuffix:        get("GOOGLE_WALLET_CLASS_SUFFIX", "perfil_seguro"),
			ServiceAccountJSON: get("GOOGLE_WALLET_SERVICE_ACCOUNT_JSON", ""),
			APIBaseURL:         get("GOOGLE_WALLET_API_URL", "https://walletobjects.googleapis.com"),
			TokenURL:           get("GOOGLE_WALLET_TOKEN_URL", "https://oauth2.googleapis.com/token"),
		},
	}
	c.DatabaseReplicaURL = get("DATABASE_REPLICA_URL", "")
	c.DatabaseListenURL = get("DATABASE_LISTEN_URL", c.DatabaseURL)
	if !validOnboardingURL(c.OnboardingURL) {
		return c, fmt.Errorf("ONBOARDING_URL must be a path of this site (such as /register) or an https:// address, not %q", c.OnboardingURL)
	}
	var err error
	if c.ShutdownGrace, err = time.ParseDuration(get("SHUTDOWN_GRACE", "25s")); err != nil {
		return c, fmt.Errorf("SHUTDOWN_GRACE: %w", err)
	}
	if c.OTPQueueBound, err = time.ParseDuration(get("OTP_QUEUE_LATENCY_BOUND", "30s")); err != nil || c.OTPQueueBound <= 0 {
		return c, fmt.Errorf("OTP_QUEUE_LATENCY_BOUND must be a positive duration such as 30s")
	}
	if c.ShutdownDrain, err = time.ParseDuration(get("SHUTDOWN_DRAIN", "0s")); err != nil || c.ShutdownDrain < 0 {
		return c, fmt.Errorf("SHUTDOWN_DRAIN must be a duration such as 5s (0: close at once)")
	}
	if c.HeartbeatInterval, err = time.ParseDuration(get("SCHEDULER_HEARTBEAT_INTERVAL", "1m")); err != nil ||
		c.HeartbeatInterval < time.Second || c.HeartbeatInterval%time.Second != 0 {
		return c, fmt.Errorf("SCHEDULER_HEARTBEAT_INTERVAL must be a whole number of seconds, at least 1s (e.g. 1m)")
	}
	c.UNListSource = get("UN_LIST_SOURCE", "")
	if c.WorkerConc, err = strconv.Atoi(get("WORKER_CONCURRENCY", "10")); err != nil || c.WorkerConc < 1 {
		return c, fmt.Errorf("WORKER_CONCURRENCY must be a positive integer")
	}
	if c.SMTP.Port, err = strconv.Atoi(get("SMTP_PORT", "587")); err != nil {
		return c, fmt.Errorf("SMTP_PORT: %w", err)
	}
	for key, dst := range map[string]*int{
		"RATE_LIMIT_SEND_PER_IP": &c.RateLimits.SendPerIP, "RATE_LIMIT_SEND_PER_PHONE": &c.RateLimits.SendPerPhone,
		"RATE_LIMIT_SEND_PER_EMAIL": &c.RateLimits.SendPerEmail, "RATE_LIMIT_VERIFY_PER_IP": &c.RateLimits.VerifyPerIP,
		"RATE_LIMIT_VERIFY_PER_USER": &c.RateLimits.VerifyPerUser, "RATE_LIMIT_ADMIN_LOGIN_PER_IP": &c.RateLimits.AdminLoginPerIP,
		"RATE_LIMIT_PRIVACY_READS_PER_USER": &c.RateLimits.PrivacyReadsPerUser,
	} {
		if *dst, err = strconv.Atoi(get(key, "0")); err != nil || *dst < 0 {
			return c, fmt.Errorf("%s must be a non-negative integer (0 keeps the default)", key)
		}
	}
	for key, dst := range map[string]*int{
		"PUBLIC_MISSES_PER_MINUTE": &c.PublicLimits.MissesPerMinute, "PUBLIC_MISS_BURST": &c.PublicLimits.MissBurst,
		"PUBLIC_HITS_PER_MINUTE": &c.PublicLimits.HitsPerMinute, "PUBLIC_HIT_BURST": &c.PublicLimits.HitBurst,
	} {
		if *dst, err = strconv.Atoi(get(key, "0")); err != nil || *dst < 0 {
			return c, fmt.Errorf("%s must be a non-negative integer (0 keeps the default)", key)
		}
	}
	if c.TrustedProxies, err = parseTrustedProxies(get("TRUSTED_PROXIES", "")); err != nil {
		return c, err
	}
	if c.Redis, err = loadRedis(getenv, c.RedisURL); err != nil {
		return c, err
	}
	switch v := get("ADMISSION_CONTROL", "on"); v {
	case "on", "off":
		c.AdmissionControl = v == "on"
	default:
		return c, fmt.Errorf("ADMISSION_CONTROL must be on or off, not %q", v)
	}
	if get("ADMISSION_LATENCY_TARGET", "") != "" {
		// Silently ignoring it would leave an operator believing it still tunes something.
		return c, fmt.Errorf("ADMISSION_LATENCY_TARGET is gone: admission control now learns the machine's capacity by itself; remove it, or set ADMISSION_LATENCY_CEILING to bound the average answer time")
	}
	if v := get("ADMISSION_LATENCY_CEILING", ""); v != "" {
		if c.AdmissionCeiling, err = time.ParseDuration(v); err != nil ||
			c.AdmissionCeiling < time.Millisecond || c.AdmissionCeiling > 10*time.Second {
			return c, fmt.Errorf("ADMISSION_LATENCY_CEILING must be a duration between 1ms and 10s, such as 500ms")
		}
	}
	switch v := get("PAYMENTS", "on"); v {
	case "on":
		c.Payments.Enabled = true
	case "off":
	default:
		return c, fmt.Errorf("PAYMENTS must be on or off, not %q", v)
	}
	if c.Payments.StripeWebhookSecret == "" && c.Payments.StripeSecretKey == "" {
		c.Payments.StripeWebhookSecret = "whsec_dev_only_checkout_stand_in"
	}
	if c.Didit.WebhookSecret == "" && c.Didit.APIKey == "" {
		c.Didit.WebhookSecret = "dev-only-webhook-secret"
	}
	if err := c.validate(); err != nil {
		return c, err
	}
	if c.AdminPassHash == "" && !c.Production() { // production signs in with passkeys only
		// Minimum cost: the password is public and this runs at every start (and in every API test).
		h, err := bcrypt.GenerateFromPassword([]byte(DevAdminPassword), bcrypt.MinCost)
		if err != nil {
			return c, fmt.Errorf("development admin password: %w", err)
		}
		c.AdminPassHash, c.AdminPassDev = string(h), true
	}
	return c, nil
}

// parseTrustedProxies reads "10.0.0.0/8, 192.168.1.10": addresses and CIDR ranges.
func parseTrustedProxies(v string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, item := range strings.Split(v, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if p, err := netip.ParsePrefix(item); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(item)
		if err != nil {
			return nil, fmt.Errorf("TRUSTED_PROXIES: %q is neither an IP address nor a CIDR range", item)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

// FromEnv loads the configuration from the process environment.
func FromEnv() (Config, error) { return Load(os.Getenv) }

// loadRedis reads the Redis topology (redisconn.Config documents the variables) and validates it.
func loadRedis(getenv func(string) string, url string) (redisconn.Config, error) {
	env := func(k string) string { return strings.TrimSpace(getenv(k)) }
	c := redisconn.Config{URL: url, SentinelAddrs: redisconn.ParseAddrs(env("REDIS_SENTINELS")),
		MasterName: env("REDIS_SENTINEL_MASTER"), SentinelPassword: env("REDIS_SENTINEL_PASSWORD"),
		ClusterAddrs: redisconn.ParseAddrs(env("REDIS_CLUSTER_NODES")),
		Username:     env("REDIS_USERNAME"), Password: env("REDIS_PASSWORD")}
	if env("REDIS_URL") != "" && c.Topology() != redisconn.Single {
		return c, errors.New("REDIS_URL is set together with REDIS_SENTINELS or REDIS_CLUSTER_NODES: choose one topology")
	}
	if v := env("REDIS_DB"); v != "" {
		db, err := strconv.Atoi(v)
		if err != nil {
			return c, fmt.Errorf("REDIS_DB must be a database number, not %q", v)
		}
		c.DB = db
	}
	switch v := env("REDIS_TLS"); v {
	case "", "false":
	case "true":
		c.TLS = true
	default:
		return c, fmt.Errorf("REDIS_TLS must be true or false, not %q", v)
	}
	if c.Topology() == redisconn.Single && (c.DB != 0 || c.TLS || c.Password != "" || c.Username != "") {
		return c, errors.New("REDIS_DB, REDIS_TLS, REDIS_USERNAME and REDIS_PASSWORD belong to REDIS_SENTINELS or REDIS_CLUSTER_NODES; a single server takes them in REDIS_URL")
	}
	return c, c.Validate()
}

// Production reports whether APP_ENV=production.
func (c Config) Production() bool { return c.Env == EnvProduction }

// OwnOrigins are Perfil Seguro's own origins (PUBLIC_BASE_URL's, as scheme://host[:port]): no
// partner may register them (perfilseguro.OwnOrigin).
func (c Config) OwnOrigins() []string {
	u, err := url.Parse(c.PublicBaseURL)
	if err != nil || u.Host == "" {
		return nil
	}
	return []string{strings.ToLower(u.Scheme + "://" + u.Host)}
}

// DevProviders reports whether local stand-ins (inbox, simulator) are in use for messaging.
func (c Config) DevProviders() bool { return c.WhatsApp.AccessToken == "" }

func (c Config) validate() error {
	switch c.Env {
	case EnvDevelopment, EnvTest, EnvProduction:
	default:
		return fmt.Errorf("APP_ENV must be development, test or production, not %q", c.Env)
	}
	if (c.Verifier.CertPEM == "") != (c.Verifier.KeyPEM == "") {
		return errors.New("VERIFIER_CERT_PEM and VERIFIER_KEY_PEM go together: set both, or neither for the development certificate")
	}
	if !c.Production() {
		return nil
	}
	// Production refuses every development default and every local stand-in.
	var problems []string
	if c.RateLimits.AdminLoginPerIP > MaxAdminLoginsPerIP {
		problems = append(problems, fmt.Sprintf("RATE_LIMIT_ADMIN_LOGIN_PER_IP may not exceed %d (the administrator's brute-force limit)", MaxAdminLoginsPerIP))
	}
	if c.SecretKey == DevSecret || len(c.SecretKey) < 32 {
		problems = append(problems, "SECRET_KEY must be set to a random value of at least 32 characters")
	}
	if len(c.DocumentDataKey) < 32 || c.DocumentDataKey == c.SecretKey {
		problems = append(problems, "DOCUMENT_DATA_KEY must be set to a random value of at least 32 characters, other than SECRET_KEY "+
			"(it encrypts the CURP and document numbers; keep it safe: data sealed with a lost key cannot be read)")
	}
	if c.AdminPassHash != "" {
		problems = append(problems, "ADMIN_PASSWORD_HASH must not be set in production: administrators sign in with a passkey. "+
			"Remove it and enrol each administrator with `perfilseguro admin create --email … --name … --role administrador` "+
			"(it prints a single-use link valid 24 hours; see the upgrade note in docs/administration.md)")
	}
	if c.WhatsApp.AccessToken == "" || c.WhatsApp.PhoneNumberID == "" {
		problems = append(problems, "WHATSAPP_ACCESS_TOKEN and WHATSAPP_PHONE_NUMBER_ID are required (no development inbox in production)")
	}
	if c.SMS.AccountSID == "" || c.SMS.AuthToken == "" || c.SMS.From == "" {
		problems = append(problems, "TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM are required")
	}
	if c.SMTP.Host == "" {
		problems = append(problems, "SMTP_HOST is required")
	}
	if c.Didit.APIKey == "" || c.Didit.WorkflowID == "" || c.Didit.WebhookSecret == "" {
		problems = append(problems, "DIDIT_API_KEY, DIDIT_WORKFLOW_ID and DIDIT_WEBHOOK_SECRET are required (no simulator in production)")
	}
	if c.Payments.Enabled && (c.Payments.StripeSecretKey == "" || c.Payments.StripeWebhookSecret == "" ||
		strings.HasPrefix(c.Payments.StripeWebhookSecret, "whsec_dev_only")) {
		problems = append(problems, "STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are required (no checkout stand-in in production), or PAYMENTS=off")
	}
	if c.Apple.CertPEM == "" || c.Apple.KeyPEM == "" || c.Apple.WWDRPEM == "" {
		problems = append(problems, "APPLE_PASS_CERT_PEM, APPLE_PASS_KEY_PEM and APPLE_WWDR_PEM are required")
	}
	if c.Apple.APNsKeyID == "" || c.Apple.APNsKeyPEM == "" {
		problems = append(problems, "APNS_KEY_ID and APNS_PRIVATE_KEY_PEM are required (pass updates are pushed through APNs)")
	}
	if c.CredentialKeysPEM == "" {
		problems = append(problems, "CREDENTIAL_ISSUER_KEYS_PEM is required (the verifiable-credential issuer's P-256 keys)")
	}
	if c.Google.ServiceAccountJSON == "" {
		problems = append(problems, "GOOGLE_WALLET_SERVICE_ACCOUNT_JSON is required")
	}
	if !strings.HasPrefix(c.PublicBaseURL, "https://") {
		problems = append(problems, "PUBLIC_BASE_URL must be https in production")
	}
	if len(problems) > 0 {
		return errors.New("production configuration refused:\n  - " + strings.Join(problems, "\n  - "))
	}
	return nil
}

// secretKeys are masked when the configuration is printed.
var secretKeys = map[string]bool{
	"SECRET_KEY": true, "DOCUMENT_DATA_KEY": true, "ADMIN_PASSWORD_HASH": true, "WHATSAPP_ACCESS_TOKEN": true,
	"TWILIO_AUTH_TOKEN": true, "SMTP_PASSWORD": true, "DIDIT_API_KEY": true,
	"DIDIT_WEBHOOK_SECRET": true, "STRIPE_SECRET_KEY": true, "STRIPE_WEBHOOK_SECRET": true, "APPLE_PASS_KEY_PEM": true, "APNS_PRIVATE_KEY_PEM": true, "GOOGLE_WALLET_SERVICE_ACCOUNT_JSON": true, "CREDENTIAL_ISSUER_KEYS_PEM": true,
	"VERIFIER_KEY_PEM": true, "DATABASE_URL": true, "DATABASE_REPLICA_URL": true, "DATABASE_LISTEN_URL": true, "REDIS_URL": true,
}

// Fields lists the settings as environment-variable name → value, secrets masked.
func (c Config) Fields() map[string]string {
	f := map[string]string{
		"APP_ENV": c.Env, "HTTP_ADDR": c.HTTPAddr, "PUBLIC_BASE_URL": c.PublicBaseURL,
		"DATABASE_URL": c.DatabaseURL, "DATABASE_REPLICA_URL": c.DatabaseReplicaURL, "DATABASE_LISTEN_URL": c.DatabaseListenURL, "REDIS_URL": c.RedisURL, "REDIS": c.Redis.String(), "SECRET_KEY": c.SecretKey,
		"DOCUMENT_DATA_KEY":   c.DocumentDataKey,
		"ADMIN_PASSWORD_HASH": c.AdminPassHash, "SUPPORT_EMAIL": c.SupportEmail,
		"LEGAL_NAME": c.LegalName, "LEGAL_ADDRESS": c.LegalAddress, "PRIVACY_EMAIL": c.PrivacyEmail,
		"ONBOARDING_URL": c.OnboardingURL, "DATA_DIR": c.DataDir, "SHUTDOWN_GRACE": c.ShutdownGrace.String(), "SHUTDOWN_DRAIN": c.ShutdownDrain.String(),
		"OTP_QUEUE_LATENCY_BOUND": c.OTPQueueBound.String(), "ADMISSION_CONTROL": onOff(c.AdmissionControl),
		"ADMISSION_LATENCY_CEILING": durationOrNone(c.AdmissionCeiling), "WORKER_CONCURRENCY": strconv.Itoa(c.WorkerConc), "METRICS_ADDR": c.MetricsAddr,
		"RATE_LIMIT_SEND_PER_IP": strconv.Itoa(c.RateLimits.SendPerIP), "RATE_LIMIT_VERIFY_PER_IP": strconv.Itoa(c.RateLimits.VerifyPerIP),
		"PUBLIC_MISSES_PER_MINUTE": strconv.Itoa(c.PublicLimits.MissesPerMinute), "PUBLIC_HITS_PER_MINUTE": strconv.Itoa(c.PublicLimits.HitsPerMinute),
		"TRUSTED_PROXIES":       prefixes(c.TrustedProxies),
		"WHATSAPP_ACCESS_TOKEN": c.WhatsApp.AccessToken, "WHATSAPP_PHONE_NUMBER_ID": c.WhatsApp.PhoneNumberID,
		"TWILIO_ACCOUNT_SID": c.SMS.AccountSID, "TWILIO_AUTH_TOKEN": c.SMS.AuthToken,
		"SMTP_HOST": c.SMTP.Host, "SMTP_PASSWORD": c.SMTP.Password,
		"DIDIT_API_KEY": c.Didit.APIKey, "DIDIT_WEBHOOK_SECRET": c.Didit.WebhookSecret,
		"PAYMENTS": onOff(c.Payments.Enabled), "STRIPE_SECRET_KEY": c.Payments.StripeSecretKey,
		"STRIPE_WEBHOOK_SECRET": c.Payments.StripeWebhookSecret,
		"APPLE_PASS_TYPE_ID":    c.Apple.PassTypeID, "APPLE_PASS_KEY_PEM": c.Apple.KeyPEM,
		"APNS_KEY_ID": c.Apple.APNsKeyID, "APNS_PRIVATE_KEY_PEM": c.Apple.APNsKeyPEM, "APNS_BASE_URL": c.Apple.APNsBaseURL,
		"CREDENTIAL_ISSUER_KEYS_PEM": c.CredentialKeysPEM,
		"GOOGLE_WALLET_ISSUER_ID":    c.Google.IssuerID, "GOOGLE_WALLET_SERVICE_ACCOUNT_JSON": c.Google.ServiceAccountJSON,
		"VERIFIER_CERT_PEM": setOrUnset(c.Verifier.CertPEM), "VERIFIER_KEY_PEM": c.Verifier.KeyPEM,
	}
	for k, v := range f {
		if secretKeys[k] {
			f[k] = mask(v)
		}
	}
	if c.DocumentDataKey == "" {
		f["DOCUMENT_DATA_KEY"] = "(development key in DATA_DIR)"
	}
	return f
}

// Log prints the configuration at start, secrets masked, in a stable order.
func (c Config) Log(logger *slog.Logger) {
	f := c.Fields()
	keys := make([]string, 0, len(f))
	for k := range f {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	attrs := make([]any, 0, len(keys))
	for _, k := range keys {
		attrs = append(attrs, slog.String(k, f[k]))
	}
	logger.Info("configuration", attrs...)
}

func durationOrNone(d time.Duration) string {
	if d == 0 {
		return "(none)"
	}
	return d.String()
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func prefixes(ps []netip.Prefix) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, ",")
}

// setOrUnset stands for a long value that is not secret (a certificate) in the start-up log.
func setOrUnset(v string) string {
	if v == "" {
		return "(unset)"
	}
	return "(set)"
}

func mask(v string) string {
	switch {
	case v == "":
		return "(unset)"
	case v == DevSecret:
		return "(development default)"
	case strings.HasPrefix(v, "$2a$04$"): // bcrypt at minimum cost: only the development admin password
		return "(development default: " + DevAdminPassword + ")"
	default:
		return "****"
	}
}

// validOnboardingURL: where the landing's buttons may send people, a path of this site or an
// https page (never javascript: or a scheme-relative //host, which a path check would let by).
func validOnboardingURL(v string) bool {
	if strings.HasPrefix(v, "/") {
		return !strings.HasPrefix(v, "//") && !strings.ContainsAny(v, "\\ \t\n\r")
	}
	u, err := url.Parse(v)
	return err == nil && u.Scheme == "https" && u.Host != ""
}
