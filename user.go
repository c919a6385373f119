package perfilseguro

import (
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"
)

// Origins a user can come from (DECISIONS.md names the sister platforms); one place for these names.
const (
	OriginCasaLista    = "CasaLista"
	OriginVentaDirecta = "VentaDirecta"
	OriginBroker       = "Broker"
	OriginOther        = "Otro"
	OriginInvitation   = "invitación" // set by the system for invited users
)

// AdminOrigins are the origins an administrator may choose.
var AdminOrigins = []string{OriginCasaLista, OriginVentaDirecta, OriginBroker, OriginOther}

// Verification levels.
const (
	LevelNone      = 0
	LevelPhone     = 1
	LevelEmail     = 2 // requires LevelPhone
	LevelBiometric = 3 // unlocks wallet passes and invitations
)

// PrivacyNoticeVersion is the privacy notice a registering person accepts; recorded with their consent.
// "2026-11-26" names the Secretaría Anticorrupción y Buen Gobierno (LFPDPPP 2025) and adds the
// simplified notice; those who accepted "2026-11" are asked again. "2026-11-28" (issue 52) names
// the identity document's data the provider reads and we keep (the number, the CURP and the
// address sealed), the keyed hash kept for "one ID, one profile", their purposes and retention;
// those who accepted "2026-11-26" are asked again, the biometric consent with it. "2026-11-28.2"
// (issue 53) names the know-your-client declaration a real-estate business may ask for (occupation,
// address, RFC, beneficiario controlador, PEP) and the LFPIORPI file kept 10 years after the
// operation, even after deletion; those who accepted "2026-11-28" are asked again.
const PrivacyNoticeVersion = "2026-11-28.2"

// User is a person with a Perfil Seguro profile.
type User struct {
	ID                int64      // internal; never enough on its own to read anyone's data
	Nombre            string     // full name
	Email             *string    // lower-cased, unique per mode (Mode)
	PhoneNumber       *string    // E.164, unique per mode
	Origen            string     // one of the Origin* constants
	InvitedBy         *int64     // inviter for OriginInvitation
	InviterName       *string    // inviter's name, when read with the user
	Vigencia          int        // validity in years: 1, 5 or 10
	FechaValidacion   *time.Time // when the identity was validated
	IDValidado        string     // profile ID PS-nnnn-nnnn-nn
	WalletReady       bool
	IsPhoneVerified   bool
	IsEmailVerified   bool
	BiometricVerified bool
	VerificationLevel int
	ExpiredAt         *time.Time // when the expiry was recorded (profile:expire job)
	RevokedAt         *time.Time // when an administrator revoked the validation
	RevokedReason     *string    // the administrator's reason (never shown publicly)
	// RevalidationRequiredAt is when a change of name annulled the biometric validation: the
	// next biometric check is not paid again and the passes say the validation was annulled.
	RevalidationRequiredAt *time.Time
	// TestPartnerID marks a test person: registered through that partner's test session, served
	// by the development stand-ins, seen only by that partner's test keys (issue 36).
	TestPartnerID *int64
	// NameFromDocument: Nombre was read from the identity document that certifies the profile
	// (issue 52), not typed by the person.
	NameFromDocument bool
	// DocumentExpiresOn is the expiry date of that document (UTC midnight): the validity ends no
	// later than the end of that day in Mexico City. Nil when the document has none or the
	// profile was validated before documents were read.
	DocumentExpiresOn *time.Time
	CreatedAt         time.Time
	UpdatedAt         time.Time
}

// Live is the mode of live people (TestPartnerID nil): the value store lookups take for them.
const Live int64 = 0

// Mode is 0 for a live person, else the id of the partner whose test person this is: the
// namespace in which their e-mail and phone are unique.
func (u User) Mode() int64 {
	if u.TestPartnerID == nil {
		return Live
	}
	return *u.TestPartnerID
}

// ValidUntil is the pass expiry: fecha_validacion plus vigencia years, or the end of the
// identity document's expiry day in Mexico City when that comes first (nil when not validated).
func (u User) ValidUntil() *time.Time {
	if u.FechaValidacion == nil {
		return nil
	}
	t := u.FechaValidacion.AddDate(u.Vigencia, 0, 0)
	if u.DocumentExpiresOn != nil {
		if end := DocumentValidThrough(*u.DocumentExpiresOn); end.Before(t) {
			t = end
		}
	}
	return &t
}

// DocumentValidThrough is the instant an ID with that expiry date stops being valid: the end of
// that day in Mexico City (the ID is valid through its expiry date).
func DocumentValidThrough(expiry time.Time) time.Time {
	y, m, d := expiry.Date()
	return time.Date(y, m, d+1, 0, 0, 0, 0, mexicoCity)
}

// mexicoCity is where people read the dates in messages and passes.
var mexicoCity = func() *time.Location {
	if loc, err := time.LoadLocation("America/Mexico_City"); err == nil {
		return loc
	}
	return time.FixedZone("CST", -6*3600) // no tzdata: Mexico City has had no DST since 2022
}()

// MexicoDate is t as a Mexican reads a date: dd/mm/yyyy in Mexico City.
func MexicoDate(t time.Time) string { return t.In(mexicoCity).Format("02/01/2006") }

// MexicoDateTime is t as dd/mm/yyyy HH:MM in Mexico City (a voucher's deadline).
func MexicoDateTime(t time.Time) string { return t.In(mexicoCity).Format("02/01/2006 15:04") }

// RenewalWindow is how long before the end of a validity its renewal may begin (and when the
// first reminder goes out).
const RenewalWindow = 30 * 24 * time.Hour

// Renewable reports whether a validated person may renew at now with a new biometric check: the
// validity ended or ends within RenewalWindow, and no administrator revoked it.
func (u User) Renewable(now time.Time) bool {
	until := u.ValidUntil()
	return u.BiometricVerified && u.VerificationLevel >= LevelBiometric && u.RevokedAt == nil &&
		until != nil && !now.Before(until.Add(-RenewalWindow))
}

// Registration is what a person submits on /register.
type Registration struct {
	FullName    string
	Email       string
	PhoneNumber string // normalized to +52 and 10 digits by the caller
}

// NormalizeEmail lower-cases and trims an e-mail address.
func NormalizeEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// ValidEmail reports whether s is a plain address (no display name).
func ValidEmail(s string) bool {
	if s == "" || len(s) > 254 {
		return false
	}
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && strings.Contains(s[strings.LastIndex(s, "@"):], ".")
}

// ValidateName checks a trimmed name has at least min characters.
func ValidateName(name string, min int) bool {
	return utf8.RuneCountInString(strings.TrimSpace(name)) >= min
}

// validateStaffAccount normalizes the e-mail and the name of an account of someone who works the
// service (an administrador, a partner's user) and returns an EINVALID error naming the bad
// fields, whose message is the first of e-mail, name and role; roleMsg refuses a role that is
// not roleOK.
func validateStaffAccount(email, name *string, roleOK bool, roleMsg string) error {
	*email = NormalizeEmail(*email)
	*name = strings.Join(strings.Fields(*name), " ")
	fields := map[string]string{}
	if !ValidEmail(*email) {
		fields["email"] = "Email inválido"
	}
	if n := len([]rune(*name)); n < 2 || n > 120 {
		fields["name"] = "Escribe el nombre (de 2 a 120 caracteres)"
	}
	if !roleOK {
		fields["role"] = roleMsg
	}
	for _, f := range []string{"email", "name", "role"} {
		if msg, ok := fields[f]; ok {
			return &Error{Code: EINVALID, Message: msg, Fields: fields}
		}
	}
	return nil
}
