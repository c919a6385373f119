package perfilseguro

import (
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Partner keys follow the convention partners know from payment providers (DECISIONS.md,
// "Partners"): a publishable key for browsers, which is public by nature and never reveals a
// person's data, and secret keys for the partner's servers, shown once and stored hashed.
const (
	PublishableLivePrefix = "pk_live_"
	PublishableTestPrefix = "pk_test_"
	SecretLivePrefix      = "sk_live_"
	SecretTestPrefix      = "sk_test_"
)

// PartnerKeyKind says what a key may do: publishable (browser) or secret (server).
type PartnerKeyKind string

// The two kinds of partner key.
const (
	KeyPublishable PartnerKeyKind = "publishable"
	KeySecret      PartnerKeyKind = "secret"
)

// legacyPublishable is the key id partners had before keys had a mode: "pk_" + 24 hex. It is a
// live publishable key since migration 0020.
var legacyPublishable = regexp.MustCompile(`^pk_[0-9a-f]{24}$`)

// partnerKeyBody is the random part of a key minted here: hex only, so "_" stays a separator.
var partnerKeyBody = regexp.MustCompile(`^[0-9a-f]{24,64}$`)

// NewPartnerKey mints a key of the kind and mode: 12 random bytes for a publishable key (it is
// public anyway), 24 for a secret one.
func NewPartnerKey(kind PartnerKeyKind, live bool) string {
	n := 12
	prefix := PublishableTestPrefix
	switch {
	case kind == KeySecret && live:
		prefix, n = SecretLivePrefix, 24
	case kind == KeySecret:
		prefix, n = SecretTestPrefix, 24
	case live:
		prefix = PublishableLivePrefix
	}
	return prefix + randomHex(n)
}

// ParsePartnerKey reads a key's kind and mode from its form; ok is false for anything that is
// not a well-formed partner key (so a malformed one never reaches the database).
func ParsePartnerKey(key string) (kind PartnerKeyKind, live, ok bool) {
	if legacyPublishable.MatchString(key) {
		return KeyPublishable, true, true
	}
	for _, p := range []struct {
		prefix string
		kind   PartnerKeyKind
		live   bool
	}{{PublishableLivePrefix, KeyPublishable, true}, {PublishableTestPrefix, KeyPublishable, false},
		{SecretLivePrefix, KeySecret, true}, {SecretTestPrefix, KeySecret, false}} {
		if body, found := strings.CutPrefix(key, p.prefix); found && partnerKeyBody.MatchString(body) {
			return p.kind, p.live, true
		}
	}
	return "", false, false
}

// PartnerKeyHint is what a console shows of a key: a publishable key whole, a secret key's
// prefix and last four characters.
func PartnerKeyHint(key string) string {
	kind, _, ok := ParsePartnerKey(key)
	if !ok || kind == KeyPublishable {
		return key
	}
	return key[:len(SecretLivePrefix)] + "…" + key[len(key)-4:]
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// Verification sessions: a partner's server asks that a person verify up to a level and share
// chosen claims; the person does it in our hosted flow (Stripe Identity's VerificationSession).

// Session statuses, as the partner reads them.
const (
	SessionCreated    = "created"     // nobody opened it yet
	SessionInProgress = "in_progress" // the hosted flow took the client secret
	SessionCompleted  = "completed"   // the person shared the claims
	SessionDeclined   = "declined"    // the person said no: nothing shared
	SessionExpired    = "expired"     // nobody finished it in time
	SessionCanceled   = "canceled"    // the partner canceled it
)

// A session's client secret opens the hosted flow once and only within ClientSecretLifetime of the
// session's creation (a leaked or forgotten one soon opens nothing); a session nobody opened by
// then expires. Once the hosted flow took it, the person may finish until SessionLifetime after
// the creation (time to verify an e-mail or complete the biometric check on the way).
const (
	ClientSecretLifetime = time.Hour
	SessionLifetime      = 24 * time.Hour
)

// SessionClaims are the claims a partner may ask for, in the order the hosted flow lists them.
var SessionClaims = []string{"name", "profileId", "validUntil", "level",
	"givenName", "familyName", "birthdate", "ageOver18", "nationality", "curp"}

// DocumentClaims are the claims read from the identity document that certifies the profile
// (issue 52): a profile whose name was typed (validated before documents were read) has none of
// them, and a document that does not carry one (a passport without a CURP) leaves it out. Such a
// claim is left out of what is shared and listed in UnavailableClaims.
var DocumentClaims = []string{"givenName", "familyName", "birthdate", "ageOver18", "nationality", "curp"}

// SensitiveClaims are never shared unless the partner asked for them and the person agreed to each
// on the hosted flow's screen (the decision names them).
var SensitiveClaims = []string{"birthdate", "curp"}

// SessionClaimLabels name each claim as the person reads it ("Compartir con {partner}: …").
var SessionClaimLabels = map[string]string{
	"name":        "Tu nombre completo",
	"profileId":   "Tu ID de perfil",
	"validUntil":  "La vigencia de tu validación",
	"level":       "Tu nivel de verificación",
	"givenName":   "Tu nombre (como aparece en tu identificación)",
	"familyName":  "Tus apellidos",
	"birthdate":   "Tu fecha de nacimiento",
	"ageOver18":   "Que eres mayor de 18 años (sin tu fecha de nacimiento)",
	"nationality": "Tu nacionalidad",
	"curp":        "Tu CURP",
}

// UnavailableClaims are the document claims asked for that shared does not carry (or carries as
// null): the profile's name did not come from its identity document, or the document lacks them.
// nil when every asked claim is there.
func UnavailableClaims(asked []string, shared map[string]any) []string {
	var out []string
	for _, c := range asked {
		if !slices.Contains(DocumentClaims, c) {
			continue
		}
		if v, ok := shared[c]; !ok || v == nil {
			out = append(out, c)
		}
	}
	return out
}

// NewSession is what a partner's server submits to open a verification session.
type NewSession struct {
	Reference     string   `json:"reference"`                                                                                               // the partner's own id: 1 to 200 characters
	RequiredLevel int      `json:"requiredLevel"`                                                                                           // 2 (e-mail) or 3 (biometric)
	Claims        []string `json:"claims" enum:"name,profileId,validUntil,level,givenName,familyName,birthdate,ageOver18,nationality,curp"` // from SessionClaims, at least one
	ReturnURL     string   `json:"returnUrl,omitempty"`
	// AMLProfile asks the person for the know-your-client declaration (LFPIORPI) after the
	// identity steps; it is shared with the claims (issue 53).
	AMLProfile bool `json:"amlProfile,omitempty" description:"Pide a la persona la declaración de conocimiento del cliente (LFPIORPI: ocupación, domicilio, RFC, beneficiario controlador, PEP), firmada con su llave de acceso o un código; se comparte con los datos pedidos"`
}

// Validate checks a new session and puts its claims in the canonical order. returnOrigin is the
// partner's registered origin: a returnUrl must live there.
func (n *NewSession) Validate(returnOrigin string) error {
	fields := map[string]string{}
	n.Reference = strings.TrimSpace(n.Reference)
	if l := utf8.RuneCountInString(n.Reference); l < 1 || l > 200 {
		fields["reference"] = "La referencia es obligatoria (de 1 a 200 caracteres)."
	}
	if n.RequiredLevel != LevelEmail && n.RequiredLevel != LevelBiometric {
		fields["requiredLevel"] = "El nivel requerido debe ser 2 (correo) o 3 (biométrico)."
	}
	var claims []string
	for _, c := range SessionClaims {
		if slices.Contains(n.Claims, c) {
			claims = append(claims, c)
		}
	}
	if len(claims) == 0 || len(claims) != len(compactStrings(n.Claims)) {
		fields["claims"] = "Pide al menos un dato válido: name, profileId, validUntil, level, givenName, familyName, birthdate, ageOver18, nationality o curp."
	}
	n.Claims = claims
	if n.ReturnURL = strings.TrimSpace(n.ReturnURL); n.ReturnURL != "" {
		u, err := url.Parse(n.ReturnURL)
		if err != nil || u.Scheme+"://"+strings.ToLower(u.Host) != returnOrigin || u.Fragment != "" {
			fields["returnUrl"] = "La dirección de regreso debe estar en el dominio registrado de tu plataforma (" + returnOrigin + ")."
		}
	}
	for _, f := range []string{"reference", "requiredLevel", "claims", "returnUrl"} {
		if m, ok := fields[f]; ok {
			return &Error{Code: EINVALID, Message: m, Fields: fields}
		}
	}
	return nil
}

// compactStrings drops repeated values (a claim asked twice counts once).
func compactStrings(in []string) []string {
	out := slices.Clone(in)
	slices.Sort(out)
	return slices.Compact(out)
}
