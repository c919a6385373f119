package config

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestDevelopmentDefaults(t *testing.T) {
	t.Parallel()
	c, err := Load(envOf(nil))
	require.NoError(t, err)
	require.Equal(t, EnvDevelopment, c.Env)
	require.Equal(t, ":8080", c.HTTPAddr)
	require.Equal(t, DevSecret, c.SecretKey)
	require.True(t, c.DevProviders())
}

func TestProductionRefusesDevelopmentSecretsAndProviders(t *testing.T) {
	t.Parallel()
	_, err := Load(envOf(map[string]string{"APP_ENV": "production"}))
	require.Error(t, err)
	for _, want := range []string{"SECRET_KEY", "WHATSAPP_ACCESS_TOKEN", "DIDIT_API_KEY", "APPLE_PASS_CERT_PEM", "PUBLIC_BASE_URL", "CREDENTIAL_ISSUER_KEYS_PEM", "STRIPE_SECRET_KEY"} {
		require.Contains(t, err.Error(), want)
	}
}

func TestProductionAcceptsCompleteConfiguration(t *testing.T) {
	t.Parallel()
	env := productionEnv()
	c, err := Load(envOf(env))
	require.NoError(t, err)
	require.True(t, c.Production())
	f := c.Fields()
	require.Equal(t, "****", f["SECRET_KEY"])
	require.Equal(t, "****", f["DIDIT_API_KEY"])
	require.Equal(t, "****", f["APNS_PRIVATE_KEY_PEM"])
	require.Equal(t, "****", f["CREDENTIAL_ISSUER_KEYS_PEM"])
	require.Equal(t, "****", f["STRIPE_SECRET_KEY"])
	require.Equal(t, "on", f["PAYMENTS"])

	// Without Stripe keys production refuses the checkout stand-in, unless payments are off.
	delete(env, "STRIPE_SECRET_KEY")
	_, err = Load(envOf(env))
	require.ErrorContains(t, err, "STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are required")
	env["PAYMENTS"] = "off"
	c, err = Load(envOf(env))
	require.NoError(t, err)
	require.False(t, c.Payments.Enabled)
	env["PAYMENTS"] = "maybe"
	_, err = Load(envOf(env))
	require.ErrorContains(t, err, "PAYMENTS must be on or off")
	require.Equal(t, "https://perfilseguro.mx", f["PUBLIC_BASE_URL"])

	// The administrator's sign-in limit can be made stricter in production, never looser.
	env["PAYMENTS"] = "off"
	env["RATE_LIMIT_ADMIN_LOGIN_PER_IP"] = "11"
	_, err = Load(envOf(env))
	require.ErrorContains(t, err, "RATE_LIMIT_ADMIN_LOGIN_PER_IP may not exceed 10")
	env["RATE_LIMIT_ADMIN_LOGIN_PER_IP"] = "5"
	_, err = Load(envOf(env))
	require.NoError(t, err)
}

func TestProductionRefusesThePasswordSignIn(t *testing.T) {
	t.Parallel()
	env := productionEnv()
	c, err := Load(envOf(env))
	require.NoError(t, err)
	require.Empty(t, c.AdminPassHash, "no development password in production")
	require.False(t, c.AdminPassDev)
	env["ADMIN_PASSWORD_HASH"] = "$2a$12$abcdefghijklmnopqrstuv"
	_, err = Load(envOf(env))
	require.ErrorContains(t, err, "ADMIN_PASSWORD_HASH must not be set in production")
	require.ErrorContains(t, err, "perfilseguro admin create --email")
}

func TestRejectsUnknownEnvironment(t *testing.T) {
	t.Parallel()
	_, err := Load(envOf(map[string]string{"APP_ENV": "staging"}))
	require.ErrorContains(t, err, "APP_ENV")
}

func TestDevelopmentAndTestHaveTheDocumentedAdminPassword(t *testing.T) {
	t.Parallel()
	for _, env := range []string{EnvDevelopment, EnvTest} {
		c, err := Load(envOf(map[string]string{"APP_ENV": env}))
		require.NoError(t, err)
		require.True(t, c.AdminPassDev)
		require.NoError(t, bcrypt.CompareHashAndPassword([]byte(c.AdminPassHash), []byte(DevAdminPassword)))
		require.Equal(t, "(development default: admin-dev-only)", c.Fields()["ADMIN_PASSWORD_HASH"])
	}
	c, err := Load(envOf(map[string]string{"ADMIN_PASSWORD_HASH": "$2a$12$abcdefghijklmnopqrstuv"}))
	require.NoError(t, err)
	require.False(t, c.AdminPassDev)
	require.Equal(t, "$2a$12$abcdefghijklmnopqrstuv", c.AdminPassHash)
}

func TestTrustedProxiesAndPublicLimits(t *testing.T) {
	c, err := Load(envOf(map[string]string{"TRUSTED_PROXIES": " 10.0.0.0/8, 192.168.1.10 ,2001:db8::/32,10.1.2.3/16",
		"PUBLIC_MISSES_PER_MINUTE": "30", "PUBLIC_HIT_BURST": "200"}))
	if err != nil {
		t.Fatal(err)
	}
	want := "10.0.0.0/8,192.168.1.10/32,2001:db8::/32,10.1.0.0/16"
	if got := c.Fields()["TRUSTED_PROXIES"]; got != want {
		t.Fatalf("TRUSTED_PROXIES = %q, want %q", got, want)
	}
	if c.PublicLimits.MissesPerMinute != 30 || c.PublicLimits.HitBurst != 200 || c.PublicLimits.HitsPerMinute != 0 {
		t.Fatalf("public limits %+v", c.PublicLimits)
	}
	for key, bad := range map[string]string{"TRUSTED_PROXIES": "10.0.0.0/8,proxy.internal", "PUBLIC_MISSES_PER_MINUTE": "-1",
		"PUBLIC_HITS_PER_MINUTE": "many", "PUBLIC_MISS_BURST": "1.5"} {
		_, err := Load(envOf(map[string]string{key: bad}))
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%s=%q: error %v does not name the variable", key, bad, err)
		}
	}
}

func TestRedisTopologiesFromTheEnvironment(t *testing.T) {
	t.Parallel()
	c, err := Load(envOf(nil))
	require.NoError(t, err)
	require.Equal(t, "single", c.Redis.Topology())
	require.Equal(t, "redis://127.0.0.1:6379/0", c.Redis.URL)

	c, err = Load(envOf(map[string]string{"REDIS_SENTINELS": "10.0.0.1:26379, 10.0.0.2:26379,10.0.0.3:26379",
		"REDIS_SENTINEL_MASTER": "perfilseguro", "REDIS_PASSWORD": "pw1", "REDIS_SENTINEL_PASSWORD": "pw2", "REDIS_DB": "2"}))
	require.NoError(t, err)
	require.Equal(t, "sentinel", c.Redis.Topology())
	require.Equal(t, []string{"10.0.0.1:26379", "10.0.0.2:26379", "10.0.0.3:26379"}, c.Redis.SentinelAddrs)
	require.Equal(t, 2, c.Redis.DB)
	require.NotContains(t, c.Fields()["REDIS"], "pw1")
	require.NotContains(t, c.Fields()["REDIS"], "pw2")

	c, err = Load(envOf(map[string]string{"REDIS_CLUSTER_NODES": "10.0.1.1:7000,10.0.1.2:7000", "REDIS_TLS": "true"}))
	require.NoError(t, err)
	require.Equal(t, "cluster", c.Redis.Topology())
	require.True(t, c.Redis.TLS)

	for env, want := range map[string]map[string]string{
		"REDIS_URL":             {"REDIS_URL": "http://x"},
		"choose one topology":   {"REDIS_URL": "redis://a:6379", "REDIS_SENTINELS": "a:26379", "REDIS_SENTINEL_MASTER": "m"},
		"REDIS_SENTINEL_MASTER": {"REDIS_SENTINELS": "a:26379"},
		"REDIS_SENTINELS":       {"REDIS_SENTINELS": "a", "REDIS_SENTINEL_MASTER": "m"},
		"REDIS_DB must be a":    {"REDIS_SENTINELS": "a:26379", "REDIS_SENTINEL_MASTER": "m", "REDIS_DB": "two"},
		"REDIS_TLS":             {"REDIS_CLUSTER_NODES": "a:7000", "REDIS_TLS": "yes"},
		"belong to":             {"REDIS_PASSWORD": "pw"},
		"REDIS_CLUSTER_NODES":   {"REDIS_CLUSTER_NODES": "a:7000,b"},
	} {
		_, err := Load(envOf(want))
		require.Error(t, err, env)
		require.Contains(t, err.Error(), env)
	}
}

// productionEnv is a complete production configuration (made-up values).
func productionEnv() map[string]string {
	return map[string]string{
		"APP_ENV": "production", "SECRET_KEY": strings.Repeat("k", 40), "DOCUMENT_DATA_KEY": strings.Repeat("d", 40),
		"WHATSAPP_ACCESS_TOKEN": "t", "WHATSAPP_PHONE_NUMBER_ID": "1", "TWILIO_ACCOUNT_SID": "AC1",
		"TWILIO_AUTH_TOKEN": "x", "TWILIO_FROM": "+15550001", "SMTP_HOST": "smtp.example",
		"DIDIT_API_KEY": "k", "DIDIT_WORKFLOW_ID": "w", "DIDIT_WEBHOOK_SECRET": "s",
		"APPLE_PASS_CERT_PEM": "c", "APPLE_PASS_KEY_PEM": "k", "APPLE_WWDR_PEM": "w", "APNS_KEY_ID": "ABCDE12345", "APNS_PRIVATE_KEY_PEM": "p8",
		"GOOGLE_WALLET_SERVICE_ACCOUNT_JSON": "{}", "PUBLIC_BASE_URL": "https://perfilseguro.mx",
		"CREDENTIAL_ISSUER_KEYS_PEM": "-----BEGIN PRIVATE KEY-----",
		"STRIPE_SECRET_KEY":          "sk_live_x", "STRIPE_WEBHOOK_SECRET": "whsec_live",
	}
}

func TestVerifierCertificateSettings(t *testing.T) {
	t.Parallel()
	// Unset: the development certificate outside production; production starts and the
	// presentation routes answer 503 (the API decides, not the configuration).
	c, err := Load(envOf(nil))
	require.NoError(t, err)
	require.Empty(t, c.Verifier.CertPEM)
	require.Equal(t, "(unset)", c.Fields()["VERIFIER_CERT_PEM"])
	require.Equal(t, "(unset)", c.Fields()["VERIFIER_KEY_PEM"])
	_, err = Load(envOf(productionEnv()))
	require.NoError(t, err)

	// Set: read as given, the key masked, the certificate only said to be there.
	env := productionEnv()
	env["VERIFIER_CERT_PEM"] = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----"
	env["VERIFIER_KEY_PEM"] = "-----BEGIN PRIVATE KEY-----\nMIGH\n-----END PRIVATE KEY-----"
	c, err = Load(envOf(env))
	require.NoError(t, err)
	require.Equal(t, env["VERIFIER_CERT_PEM"], c.Verifier.CertPEM)
	require.Equal(t, env["VERIFIER_KEY_PEM"], c.Verifier.KeyPEM)
	require.Equal(t, "(set)", c.Fields()["VERIFIER_CERT_PEM"])
	require.Equal(t, "****", c.Fields()["VERIFIER_KEY_PEM"])

	// One without the other is refused in every environment.
	for _, appEnv := range []string{EnvDevelopment, EnvProduction} {
		for _, only := range []string{"VERIFIER_CERT_PEM", "VERIFIER_KEY_PEM"} {
			e := productionEnv()
			e["APP_ENV"] = appEnv
			e[only] = env[only]
			_, err := Load(envOf(e))
			require.ErrorContains(t, err, "VERIFIER_CERT_PEM and VERIFIER_KEY_PEM go together", "%s %s", appEnv, only)
		}
	}
}

// The public-record cache LISTENs on DATABASE_URL unless DATABASE_LISTEN_URL names a direct or
// session-mode connection (the pool behind a transaction-mode PgBouncer would lose the LISTEN).
func TestListenURLDefaultsToTheDatabaseURL(t *testing.T) {
	t.Parallel()
	env := map[string]string{"DATABASE_URL": "postgres://app@pgbouncer:6432/perfilseguro"}
	c, err := Load(envOf(env))
	require.NoError(t, err)
	require.Equal(t, env["DATABASE_URL"], c.DatabaseListenURL)
	env["DATABASE_LISTEN_URL"] = "postgres://app@haproxy:5000/perfilseguro"
	c, err = Load(envOf(env))
	require.NoError(t, err)
	require.Equal(t, "postgres://app@haproxy:5000/perfilseguro", c.DatabaseListenURL)
	require.Equal(t, "****", c.Fields()["DATABASE_LISTEN_URL"])
}

// Capacity needs no setting: the old target is refused with a message saying why; the ceiling on
// the ceiling on the average answer time is off unless set.
func TestAdmissionLatencyCeiling(t *testing.T) {
	t.Parallel()
	c, err := Load(envOf(map[string]string{}))
	require.NoError(t, err)
	require.Zero(t, c.AdmissionCeiling, "none by default")
	require.Equal(t, "(none)", c.Fields()["ADMISSION_LATENCY_CEILING"])

	c, err = Load(envOf(map[string]string{"ADMISSION_LATENCY_CEILING": "250ms"}))
	require.NoError(t, err)
	require.Equal(t, 250*time.Millisecond, c.AdmissionCeiling)
	require.Equal(t, "250ms", c.Fields()["ADMISSION_LATENCY_CEILING"])

	for _, bad := range []string{"10", "0s", "-5ms", "500us", "11s", "pronto"} {
		_, err = Load(envOf(map[string]string{"ADMISSION_LATENCY_CEILING": bad}))
		require.ErrorContains(t, err, "ADMISSION_LATENCY_CEILING must be a duration between 1ms and 10s", bad)
	}
	_, err = Load(envOf(map[string]string{"ADMISSION_LATENCY_TARGET": "10ms"}))
	require.ErrorContains(t, err, "ADMISSION_LATENCY_TARGET is gone")
}

// ONBOARDING_URL is a path of this site or an https page; anything else is refused at start.
func TestOnboardingURLIsAPathOrAnHTTPSPage(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"/register", "/register?plan=anual#inicio", "https://alta.example.mx/empezar"} {
		c, err := Load(envOf(map[string]string{"ONBOARDING_URL": ok}))
		require.NoError(t, err, ok)
		require.Equal(t, ok, c.OnboardingURL)
	}
	for _, bad := range []string{"javascript:alert(1)", "//otro.example/x", "http://alta.example.mx", "https://", "register", "/\\otro.example", "/a b"} {
		_, err := Load(envOf(map[string]string{"ONBOARDING_URL": bad}))
		require.ErrorContains(t, err, "ONBOARDING_URL must be a path of this site", bad)
	}
}

func TestTheDocumentDataKeyIsMaskedAndRequiredInProduction(t *testing.T) {
	t.Parallel()
	// Development: unset means the key generated in DATA_DIR, and the log says so.
	c, err := Load(envOf(nil))
	require.NoError(t, err)
	require.Empty(t, c.DocumentDataKey)
	require.Equal(t, "(development key in DATA_DIR)", c.Fields()["DOCUMENT_DATA_KEY"])

	env := productionEnv()
	c, err = Load(envOf(env))
	require.NoError(t, err)
	require.Equal(t, env["DOCUMENT_DATA_KEY"], c.DocumentDataKey)
	require.Equal(t, "****", c.Fields()["DOCUMENT_DATA_KEY"], "never printed")

	for name, value := range map[string]string{"missing": "", "short": "too-short", "the same as SECRET_KEY": env["SECRET_KEY"]} {
		e := productionEnv()
		e["DOCUMENT_DATA_KEY"] = value
		_, err := Load(envOf(e))
		require.ErrorContains(t, err, "DOCUMENT_DATA_KEY must be set", name)
	}
}
