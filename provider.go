package perfilseguro

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// WhatsAppSender delivers messages through the WhatsApp Cloud API (or a local stand-in).
// Phones are E.164 (+52 and 10 digits for Mexico). A failure that retrying cannot fix
// (recipient not on WhatsApp, template rejected) wraps ErrPermanent.
type WhatsAppSender interface {
	// SendOTP sends the authentication template with a copy-code button.
	SendOTP(ctx context.Context, phoneE164, code string) error
	// SendInvitation sends the invitation template with the inviter's name and the unique link.
	SendInvitation(ctx context.Context, phoneE164 string, inv InvitationMessage) error
	// SendRenewalReminder sends the reminder template: the validity ends soon, renew here.
	SendRenewalReminder(ctx context.Context, phoneE164 string, r RenewalReminder) error
	// SendPaymentNotice sends a payment template: the OXXO cash payment arrived, or the voucher
	// expired unpaid.
	SendPaymentNotice(ctx context.Context, phoneE164 string, n PaymentNotice) error
}

// SMSSender delivers plain text messages by SMS; the fallback for WhatsApp.
type SMSSender interface {
	SendSMS(ctx context.Context, phoneE164, body string) error
}

// Email is one outgoing e-mail with both HTML and plain-text bodies.
type Email struct {
	To      string
	Subject string
	Text    string
	HTML    string
}

// EmailSender delivers e-mails (SMTP, or the development inbox).
type EmailSender interface {
	SendEmail(ctx context.Context, msg Email) error
}

// InvitationMessage is what an invitee reads: who invites, why, and the link to accept.
type InvitationMessage struct {
	InviteeName     string
	InviterName     string
	CompanyName     string
	PersonalMessage string
	Link            string
	ExpiresAt       time.Time
}

// RenewalReminder is what a person reads before their validation ends.
type RenewalReminder struct {
	Name       string
	ProfileID  string
	ValidUntil time.Time
	DaysLeft   int
	Link       string // where to renew (Mi Perfil)
}

// BiometricSessionRequest asks the biometric provider for a hosted verification session.
type BiometricSessionRequest struct {
	UserID      int64  // our user, sent as vendor_data
	CallbackURL string // where the provider returns the browser (our /return)
	// The name and birth date the person typed, for the provider's own comparison against the
	// document (a second opinion, never instead of ours); empty or zero ones are not sent.
	ExpectedGivenNames string
	ExpectedSurnames   string
	ExpectedBirthDate  time.Time
}

// BiometricSession is a created provider session.
type BiometricSession struct {
	SessionID string
	URL       string          // hosted verification page to open in the popup
	Raw       json.RawMessage // provider response, kept in verification_sessions.raw_response
}

// Biometric decision statuses as the provider names them.
const (
	BiometricNotStarted  = "Not Started"
	BiometricInProgress  = "In Progress"
	BiometricApproved    = "Approved"
	BiometricDeclined    = "Declined"
	BiometricInReview    = "In Review"
	BiometricResubmitted = "Resubmitted"
	BiometricExpired     = "Expired"
	BiometricAbandoned   = "Abandoned"
)

// BiometricStatusNames are the statuses as a person reads them ("pending": our session row,
// created before the provider's).
var BiometricStatusNames = map[string]string{
	"pending":            "Creada, sin iniciar",
	BiometricNotStarted:  "Sin iniciar",
	BiometricInProgress:  "En curso",
	BiometricApproved:    "Aprobada",
	BiometricDeclined:    "Rechazada",
	BiometricInReview:    "En revisión",
	BiometricResubmitted: "Se pidió repetirla",
	BiometricExpired:     "Vencida sin terminar",
	BiometricAbandoned:   "Abandonada",
}

// BiometricDecision is the provider's verdict on a session, with scores in 0..100 when known.
type BiometricDecision struct {
	SessionID  string
	Status     string // one of the Biometric* statuses
	VendorData string // our user id as sent at creation
	Overall    *float64
	FaceMatch  *float64
	Document   *float64
	Liveness   *float64
	Raw        json.RawMessage
	// Identity is what the last completed document report read from the ID; nil when the
	// decision carries none. (Document above is the document check's score, kept as it was.)
	Identity *DocumentIdentity
	// RegistryChecks are the issuing registries' answers, field by field; nil when absent.
	RegistryChecks []RegistryCheck
}

// BiometricProvider creates hosted sessions and reports decisions.
type BiometricProvider interface {
	CreateSession(ctx context.Context, req BiometricSessionRequest) (BiometricSession, error)
	GetDecision(ctx context.Context, sessionID string) (BiometricDecision, error)
}

// PassData is what a wallet pass shows; the same for Apple and Google.
type PassData struct {
	UserID     int64
	Name       string
	ProfileID  string // PS-nnnn-nnnn-nn, also the serial number
	Level      int
	ValidFrom  time.Time
	ValidUntil time.Time // fecha_validacion + vigencia years, or the end of the ID's expiry day when that comes first
	// IDExpiresOn is the identity document's expiry date (UTC midnight) when it, not the plan,
	// ends the validity (issue 52): the pass says so. Nil when the plan's years end first.
	IDExpiresOn *time.Time
	VerifyURL   string // public link encoded in the QR
	Status      string // PassValid, PassExpired, PassRevoked, PassAnnulled or PassDeleted: a pass that is not valid is voided
	// WebServiceURL is where Apple Wallet asks for updates (PassKit web service); AuthToken
	// authorizes those calls for this pass. Apple only; the token is added by the build job.
	WebServiceURL string
	AuthToken     string
}

// Validate rejects pass data that would make an empty or unreadable pass in either wallet: no
// profile ID, verify URL or validity date, or no name on a pass that still shows the person. The
// error is for logs (the data comes from our own records), so it is not an Error.
func (p PassData) Validate() error {
	switch {
	case p.ProfileID == "":
		return errors.New("missing profile ID")
	case p.Name == "" && p.Status != PassDeleted:
		return errors.New("missing name")
	case p.VerifyURL == "":
		return errors.New("missing verify URL")
	case p.ValidUntil.IsZero():
		return errors.New("missing validity date")
	}
	return nil
}

// Pass statuses (PassData.Status).
const (
	PassValid   = ""
	PassExpired = "expired"
	PassRevoked = "revoked"
	PassDeleted = "deleted" // the account was deleted: the pass shows no one, only that it is void
	// PassAnnulled: the person changed their name, so the biometric result no longer matches it.
	PassAnnulled = "annulled"
)

// ApplePassBuilder builds a signed .pkpass archive.
type ApplePassBuilder interface {
	BuildPass(p PassData) ([]byte, error)
}

// GooglePassSigner produces the "save to Google Wallet" link.
type GooglePassSigner interface {
	SaveURL(p PassData) (string, error)
}

// GooglePassUpdater changes a Google Wallet pass object that a person already saved (its state,
// dates and face), so the card in their wallet follows the profile.
type GooglePassUpdater interface {
	// UpdatePass returns an error wrapping ErrPassNotSaved when nobody saved the object yet
	// (nothing to update), and one wrapping ErrPermanent for a refusal a retry cannot fix.
	UpdatePass(ctx context.Context, p PassData) error
}

// ErrPassNotSaved is a wallet pass no one has saved yet: there is nothing to update.
var ErrPassNotSaved = errors.New("wallet pass not saved")

// PassUpdatePusher tells a device that an Apple Wallet pass it holds changed (APNs).
type PassUpdatePusher interface {
	// PushPassUpdate returns an error wrapping ErrPushTokenGone when the device no longer wants
	// pushes (forget its registration).
	PushPassUpdate(ctx context.Context, pushToken string) error
}

// ErrPushTokenGone is a push token the push service no longer accepts (APNs 410).
var ErrPushTokenGone = errors.New("push token no longer registered")
