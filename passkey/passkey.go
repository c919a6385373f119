package passkey

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/protocol/webauthncose"
	"github.com/go-webauthn/webauthn/webauthn"
	"github.com/jmoiron/sqlx"
)

// Kinds of owners: a person (users), an administrator (admins, migration 0017) or a partner's
// user in the partner console (partner_users, migration 0021).
const (
	KindUser    = "user"
	KindAdmin   = "admin"
	KindPartner = "partner"
)

// validKind reports whether kind is one of the owner kinds above.
func validKind(kind string) bool { return kind == KindUser || kind == KindAdmin || kind == KindPartner }

// ChallengeLifetime is how long the options of a ceremony can be answered.
const ChallengeLifetime = 5 * time.Minute

// RPDisplayName is the name authenticators show beside the passkey.
const RPDisplayName = "Perfil Seguro"

// Owner is the account a passkey belongs to.
type Owner struct {
	Kind        string // KindUser, KindAdmin or KindPartner
	ID          int64  // users.id, admins.id or partner_users.id
	Name        string // what the passkey picker shows (an e-mail, a phone); registration only
	DisplayName string // the person's name; registration only
}

// handle is the user handle authenticators keep for the owner ("user:42").
func (o Owner) handle() []byte { return []byte(o.Kind + ":" + strconv.FormatInt(o.ID, 10)) }

// Credential is one registered passkey as its owner sees it.
type Credential struct {
	ID           int64      // webauthn_credentials.id (the API's credentialId)
	Owner        Owner      // Kind and ID only
	CredentialID []byte     // the authenticator's credential id
	Name         string     // chosen by the owner, 1 to 60 characters
	Synced       bool       // backup state: kept by a password manager or platform keychain
	CloneWarning bool       // its sign count went backwards once: refused for good
	CreatedAt    time.Time  //
	LastUsedAt   *time.Time // nil: never used to sign in
}

// Options is what the browser passes to navigator.credentials.create/get: WebAuthn's JSON form
// of the options, under publicKey (go-webauthn's CredentialCreation or CredentialAssertion).
type Options struct {
	PublicKey json.RawMessage `json:"publicKey"`
	Mediation string          `json:"mediation,omitempty"`
}

// Service runs ceremonies against one relying party (PUBLIC_BASE_URL).
type Service struct {
	db  *sqlx.DB
	wa  *webauthn.WebAuthn
	now func() time.Time
}

// New builds the service for publicBaseURL. It fails when the URL's host cannot be a WebAuthn
// RP ID (an IP address, for one: browsers refuse those too).
func New(db *sqlx.DB, publicBaseURL string, now func() time.Time) (*Service, error) {
	u, err := url.Parse(strings.TrimRight(publicBaseURL, "/"))
	if err != nil || u.Hostname() == "" {
		return nil, fmt.Errorf("passkey: PUBLIC_BASE_URL %q has no host", publicBaseURL)
	}
	if now == nil {
		now = time.Now
	}
	wa, err := webauthn.New(&webauthn.Config{
		RPID:          u.Hostname(),
		RPDisplayName: RPDisplayName,
		RPOrigins:     []string{u.Scheme + "://" + u.Host},
		// Expiry is ours (expires_at, on the injectable clock); go-webauthn's would use time.Now.
		Timeouts: webauthn.TimeoutsConfig{
			Login:        webauthn.TimeoutConfig{Timeout: ChallengeLifetime, TimeoutUVD: ChallengeLifetime},
			Registration: webauthn.TimeoutConfig{Timeout: ChallengeLifetime, TimeoutUVD: ChallengeLifetime},
		},
		// Password managers add extension outputs nobody asked for; they change nothing we check.
		ExtensionsUnsolicitedOutputPolicy: protocol.UnsolicitedOutputPolicyIgnore,
	})
	if err != nil {
		return nil, fmt.Errorf("passkey: relying party from %q: %w", publicBaseURL, err)
	}
	return &Service{db: db, wa: wa, now: now}, nil
}

// RPID is the relying party id (PUBLIC_BASE_URL's host).
func (s *Service) RPID() string { return s.wa.Config.RPID }

// waUser is an owner with its credentials, as go-webauthn wants it.
type waUser struct {
	o     Owner
	creds []webauthn.Credential
}

func (u waUser) WebAuthnID() []byte { return u.o.handle() }
func (u waUser) WebAuthnName() string {
	if u.o.Name != "" {
		return u.o.Name
	}
	return RPDisplayName
}
func (u waUser) WebAuthnDisplayName() string {
	if u.o.DisplayName != "" {
		return u.o.DisplayName
	}
	return u.WebAuthnName()
}
func (u waUser) WebAuthnCredentials() []webauthn.Credential { return u.creds }

// BeginRegistration starts adding a passkey to owner, from the browser holding sessionKey.
func (s *Service) BeginRegistration(ctx context.Context, owner Owner, sessionKey string) (Options, error) {
	existing, err := s.ownerRecords(ctx, owner)
	if err != nil {
		return Options{}, err
	}
	user := waUser{o: owner, creds: existing}
	creation, sd, err := s.wa.BeginRegistration(user,
		webauthn.WithAuthenticatorSelection(protocol.AuthenticatorSelection{
			ResidentKey: protocol.ResidentKeyRequirementRequired, RequireResidentKey: protocol.ResidentKeyRequired(),
			UserVerification: protocol.VerificationRequired}),
		webauthn.WithConveyancePreference(protocol.PreferNoAttestation),
		webauthn.WithCredentialParameters([]protocol.CredentialParameter{
			{Type: protocol.PublicKeyCredentialType, Algorithm: webauthncose.AlgES256},
			{Type: protocol.PublicKeyCredentialType, Algorithm: webauthncose.AlgRS256}}),
		webauthn.WithExclusions(webauthn.Credentials(existing).CredentialDescriptors()),
		webauthn.WithExtensions(webauthn.WithExtensionCredProps()),
	)
	if err != nil {
		return Options{}, fmt.Errorf("passkey: begin registration for %s %d: %w", owner.Kind, owner.ID, err)
	}
	return s.begin(ctx, sessionKey, "register", owner.Kind, &owner.ID, sd, creation.Response, string(creation.Mediation))
}

// FinishRegistration checks the browser's answer (a PublicKeyCredential in WebAuthn's JSON form)
// and saves the passkey under name ("" names it "Llave de acceso N").
func (s *Service) FinishRegistration(ctx context.Context, owner Owner, sessionKey string, answer []byte, name string) (Credential, error) {
	if err := checkOwner(owner); err != nil {
		return Credential{}, err
	}
	name, err := s.nameFor(ctx, owner, name)
	if err != nil {
		return Credential{}, err
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(answer)
	if err != nil {
		return Credential{}, classify(err)
	}
	sd, err := s.consume(ctx, sessionKey, "register", owner.Kind, &owner.ID, parsed.Response.CollectedClientData.Challenge)
	if err != nil {
		return Credential{}, err
	}
	cred, err := s.checkWithRecords(ctx, owner, func(u waUser) (*webauthn.Credential, error) {
		return s.wa.CreateCredential(u, sd, parsed)
	})
	if err != nil {
		return Credential{}, err
	}
	return s.insert(ctx, owner, cred, name)
}

// BeginLogin starts a discoverable sign-in for an account of kind: the browser offers the
// passkeys it holds for this site, whoever they belong to.
func (s *Service) BeginLogin(ctx context.Context, kind, sessionKey string) (Options, error) {
	if !validKind(kind) {
		return Options{}, fmt.Errorf("passkey: unknown owner kind %q", kind)
	}
	assertion, sd, err := s.wa.BeginDiscoverableLogin(webauthn.WithUserVerification(protocol.VerificationRequired))
	if err != nil {
		return Options{}, fmt.Errorf("passkey: begin login: %w", err)
	}
	return s.begin(ctx, sessionKey, "login", kind, nil, sd, assertion.Response, string(assertion.Mediation))
}

// FinishLogin checks a discoverable sign-in and returns whose passkey signed it.
func (s *Service) FinishLogin(ctx context.Context, kind, sessionKey string, answer []byte) (Owner, Credential, error) {
	parsed, sd, err := s.assertionAnswer(ctx, sessionKey, "login", kind, nil, answer)
	if err != nil {
		return Owner{}, Credential{}, err
	}
	row, err := s.byCredentialID(ctx, kind, parsed.RawID)
	if err != nil {
		return Owner{}, Credential{}, err
	}
	owner := row.owner(kind)
	if string(parsed.Response.UserHandle) != string(owner.handle()) {
		return Owner{}, Credential{}, ErrOtherAccount
	}
	user := waUser{o: owner, creds: []webauthn.Credential{row.record()}}
	_, cred, err := s.wa.ValidatePasskeyLogin(func(_, _ []byte) (webauthn.User, error) { return user, nil }, sd, parsed)
	if err != nil {
		return Owner{}, Credential{}, classify(err)
	}
	used, err := s.markUsed(ctx, kind, row, cred)
	return owner, used, err
}

// BeginAssertion starts a fresh re-authentication of owner (before a sensitive action): the
// browser may only use one of owner's passkeys.
func (s *Service) BeginAssertion(ctx context.Context, owner Owner, sessionKey string) (Options, error) {
	creds, err := s.ownerRecords(ctx, owner)
	if err != nil {
		return Options{}, err
	}
	if len(creds) == 0 {
		return Options{}, ErrNoPasskeys
	}
	assertion, sd, err := s.wa.BeginLogin(waUser{o: owner, creds: creds}, webauthn.WithUserVerification(protocol.VerificationRequired))
	if err != nil {
		return Options{}, fmt.Errorf("passkey: begin assertion for %s %d: %w", owner.Kind, owner.ID, err)
	}
	return s.begin(ctx, sessionKey, "assert", owner.Kind, &owner.ID, sd, assertion.Response, string(assertion.Mediation))
}

// FinishAssertion checks that owner, and nobody else, just used one of their passkeys.
func (s *Service) FinishAssertion(ctx context.Context, owner Owner, sessionKey string, answer []byte) (Credential, error) {
	if err := checkOwner(owner); err != nil {
		return Credential{}, err
	}
	parsed, sd, err := s.assertionAnswer(ctx, sessionKey, "assert", owner.Kind, &owner.ID, answer)
	if err != nil {
		return Credential{}, err
	}
	row, err := s.byCredentialID(ctx, owner.Kind, parsed.RawID)
	if errors.Is(err, ErrUnknownCredential) {
		return Credential{}, ErrOtherAccount // some passkey, but not one of owner's
	}
	if err != nil {
		return Credential{}, err
	}
	if row.OwnerID != owner.ID {
		return Credential{}, ErrOtherAccount
	}
	cred, err := s.checkWithRecords(ctx, owner, func(u waUser) (*webauthn.Credential, error) {
		return s.wa.ValidateLogin(u, sd, parsed)
	})
	if err != nil {
		return Credential{}, err
	}
	return s.markUsed(ctx, owner.Kind, row, cred)
}

// List is owner's passkeys, oldest first.
func (s *Service) List(ctx context.Context, owner Owner) ([]Credential, error) {
	rows, err := s.rows(ctx, owner)
	if err != nil {
		return nil, err
	}
	out := make([]Credential, len(rows))
	for i, r := range rows {
		out[i] = r.credential(owner.Kind)
	}
	return out, nil
}

// Rename gives owner's passkey id a new name (1 to 60 characters).
func (s *Service) Rename(ctx context.Context, owner Owner, id int64, name string) (Credential, error) {
	name, ok := CleanName(name)
	if !ok {
		return Credential{}, ErrBadName
	}
	q := fmt.Sprintf(`UPDATE webauthn_credentials SET name = $3 WHERE id = $1 AND %s = $2 RETURNING %s`, ownerColumn(owner.Kind), credentialColumns(owner.Kind))
	var r credentialRow
	if err := sqlx.GetContext(ctx, s.conn(ctx), &r, q, id, owner.ID, name); err != nil {
		if isNoRows(err) {
			return Credential{}, ErrNotFound
		}
		return Credential{}, fmt.Errorf("passkey: rename %d: %w", id, err)
	}
	return r.credential(owner.Kind), nil
}

// Delete removes owner's passkey id; it returns what was removed.
func (s *Service) Delete(ctx context.Context, owner Owner, id int64) (Credential, error) {
	q := fmt.Sprintf(`DELETE FROM webauthn_credentials WHERE id = $1 AND %s = $2 RETURNING %s`, ownerColumn(owner.Kind), credentialColumns(owner.Kind))
	var r credentialRow
	if err := sqlx.GetContext(ctx, s.conn(ctx), &r, q, id, owner.ID); err != nil {
		if isNoRows(err) {
			return Credential{}, ErrNotFound
		}
		return Credential{}, fmt.Errorf("passkey: delete %d: %w", id, err)
	}
	return r.credential(owner.Kind), nil
}

// CleanName trims a passkey name and says whether it has 1 to 60 characters.
func CleanName(name string) (string, bool) {
	name = strings.Join(strings.Fields(name), " ")
	n := utf8.RuneCountInString(name)
	return name, n >= 1 && n <= 60
}

// nameFor validates a chosen name or picks "Llave de acceso N".
func (s *Service) nameFor(ctx context.Context, owner Owner, name string) (string, error) {
	if strings.TrimSpace(name) != "" {
		clean, ok := CleanName(name)
		if !ok {
			return "", ErrBadName
		}
		return clean, nil
	}
	var n int
	q := fmt.Sprintf(`SELECT count(*) FROM webauthn_credentials WHERE %s = $1`, ownerColumn(owner.Kind))
	if err := sqlx.GetContext(ctx, s.conn(ctx), &n, q, owner.ID); err != nil {
		return "", fmt.Errorf("passkey: count for %s %d: %w", owner.Kind, owner.ID, err)
	}
	return fmt.Sprintf("Llave de acceso %d", n+1), nil
}

// assertionAnswer parses a browser's answer to a sign-in or re-authentication (purpose) and
// consumes the ceremony it answers, so that one challenge is never used twice.
func (s *Service) assertionAnswer(ctx context.Context, sessionKey, purpose, kind string, ownerID *int64,
	answer []byte) (*protocol.ParsedCredentialAssertionData, webauthn.SessionData, error) {
	parsed, err := protocol.ParseCredentialRequestResponseBytes(answer)
	if err != nil {
		return nil, webauthn.SessionData{}, classify(err)
	}
	sd, err := s.consume(ctx, sessionKey, purpose, kind, ownerID, parsed.Response.CollectedClientData.Challenge)
	if err != nil {
		return nil, webauthn.SessionData{}, err
	}
	return parsed, sd, nil
}

// ownerRecords checks owner and reads the passkeys it holds, as WebAuthn credentials.
func (s *Service) ownerRecords(ctx context.Context, owner Owner) ([]webauthn.Credential, error) {
	if err := checkOwner(owner); err != nil {
		return nil, err
	}
	return s.records(ctx, owner)
}

// checkWithRecords runs a WebAuthn check of a browser's answer against owner's saved passkeys;
// a refused answer becomes its domain error (classify).
func (s *Service) checkWithRecords(ctx context.Context, owner Owner, check func(waUser) (*webauthn.Credential, error)) (*webauthn.Credential, error) {
	existing, err := s.records(ctx, owner)
	if err != nil {
		return nil, err
	}
	cred, err := check(waUser{o: owner, creds: existing})
	if err != nil {
		return nil, classify(err)
	}
	return cred, nil
}

func checkOwner(o Owner) error {
	if !validKind(o.Kind) || o.ID <= 0 {
		return fmt.Errorf("passkey: bad owner %s %d", o.Kind, o.ID)
	}
	return nil
}

// ownerColumn is the column of webauthn_credentials naming an owner of kind (a constant, never
// input: safe to format into SQL). admin_id exists once migration 0017 ran, partner_user_id
// once 0021 did.
func ownerColumn(kind string) string {
	switch kind {
	case KindAdmin:
		return "admin_id"
	case KindPartner:
		return "partner_user_id"
	}
	return "user_id"
}
