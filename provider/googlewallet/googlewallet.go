// Package googlewallet produces "save to Google Wallet" links: a generic pass
// object inside a JWT signed RS256 with the issuer's service-account key.
package googlewallet

import (
	"crypto/rsa"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// SaveURLPrefix is followed by the signed JWT in a save link.
const SaveURLPrefix = "https://pay.google.com/gp/v/save/"

// Card look and wording, matching the Apple pass.
const (
	cardTitle          = "Perfil Seguro"
	cardSubheader      = "Identidad validada"
	hexBackgroundColor = "#1e3a8a"
	language           = "es-MX"
	esMXDate           = "02/01/2006"
)

// Config identifies the Google Wallet issuer and the service account that signs for it.
type Config struct {
	IssuerID            string          // numeric issuer ID from the Google Pay & Wallet console
	ClassSuffix         string          // generic class identifier, e.g. perfil_seguro; the class must exist
	ServiceAccountEmail string          // JWT issuer (client_email of the key file)
	PrivateKey          *rsa.PrivateKey // service-account key
	Origins             []string        // web origins allowed to show the save button
}

// Signer signs save links; it is safe for concurrent use.
type Signer struct {
	cfg Config
	now func() time.Time
}

var _ perfilseguro.GooglePassSigner = (*Signer)(nil)

// New returns a Signer for cfg; SaveURL reports missing configuration.
func New(cfg Config) *Signer {
	return &Signer{cfg: cfg, now: time.Now}
}

// SaveURL returns the "save to Google Wallet" link for p, with a QR encoding p.VerifyURL.
func (s *Signer) SaveURL(p perfilseguro.PassData) (string, error) {
	if err := s.checkConfig(); err != nil {
		return "", err
	}
	if err := validate(p); err != nil {
		return "", err
	}
	origins := s.cfg.Origins
	if origins == nil {
		origins = []string{}
	}
	claims := jwt.MapClaims{
		"iss":     s.cfg.ServiceAccountEmail,
		"aud":     "google",
		"typ":     "savetowallet",
		"iat":     s.now().Unix(),
		"origins": origins,
		"payload": payload{GenericClasses: []genericClass{{ID: s.classID()}}, GenericObjects: []genericObject{s.object(p)}},
	}
	token, err := jwt.NewWithClaims(jwt.SigningMethodRS256, claims).SignedString(s.cfg.PrivateKey)
	if err != nil {
		return "", fmt.Errorf("googlewallet: sign: %w", err)
	}
	return SaveURLPrefix + token, nil
}

// classID is the generic class of every object: issuer ID and class suffix.
func (s *Signer) classID() string { return s.cfg.IssuerID + "." + s.cfg.ClassSuffix }

// object renders p as a generic pass object.
func (s *Signer) object(p perfilseguro.PassData) genericObject {
	o := genericObject{
		ID:        s.cfg.IssuerID + "." + sanitizeID(p.ProfileID),
		ClassID:   s.classID(),
		State:     "ACTIVE",
		CardTitle: localized(cardTitle),
		Header:    localized(p.Name),
		Subheader: localized(cardSubheader),
		TextModulesData: []textModule{
			{ID: "profile_id", Header: "ID de perfil", Body: p.ProfileID},
			{ID: "level", Header: "Verificación", Body: fmt.Sprintf("Nivel %d", p.Level)},
			{ID: "valid_until", Header: "Vigente hasta", Body: p.ValidUntil.Format(esMXDate)},
		},
		Barcode: barcode{Type: "QR_CODE", Value: p.VerifyURL, AlternateText: p.ProfileID},
		ValidTimeInterval: timeInterval{
			End: &dateTime{Date: p.ValidUntil.Format(time.RFC3339)},
		},
		HexBackgroundColor: hexBackgroundColor,
	}
	if !p.ValidFrom.IsZero() {
		o.ValidTimeInterval.Start = &dateTime{Date: p.ValidFrom.Format(time.RFC3339)}
	}
	// The ID expires before the plan ends (issue 52): its date, and why.
	if p.IDExpiresOn != nil && p.Status == perfilseguro.PassValid {
		until := p.IDExpiresOn.UTC().Format(esMXDate)
		o.TextModulesData[2].Body = until
		o.TextModulesData = append(o.TextModulesData, textModule{ID: "validity", Header: "Vigencia",
			Body: "Vigente hasta " + until + " (vence tu identificación)"})
	}
	// An ended validation: Google's states for an expired and a withdrawn object, and the reason
	// on its face where "Vigente hasta" was.
	switch p.Status {
	case perfilseguro.PassExpired:
		o.State = "EXPIRED"
		o.TextModulesData[2] = textModule{ID: "status", Header: "Estado", Body: "Expirado"}
	case perfilseguro.PassRevoked:
		o.State = "INACTIVE"
		o.TextModulesData[2] = textModule{ID: "status", Header: "Estado", Body: "Revocado"}
	case perfilseguro.PassAnnulled:
		o.State = "INACTIVE"
		o.TextModulesData[2] = textModule{ID: "status", Header: "Estado", Body: "Validación anulada"}
	case perfilseguro.PassDeleted: // shows no one: only its ID and that it is void
		o.State = "INACTIVE"
		o.Header = localized("—")
		o.TextModulesData = []textModule{o.TextModulesData[0], {ID: "status", Header: "Estado", Body: "Cuenta eliminada"}}
	}
	return o
}

func (s *Signer) checkConfig() error {
	switch {
	case s.cfg.IssuerID == "":
		return errors.New("googlewallet: missing issuer ID")
	case s.cfg.ClassSuffix == "":
		return errors.New("googlewallet: missing class suffix")
	case s.cfg.ServiceAccountEmail == "":
		return errors.New("googlewallet: missing service account e-mail")
	case s.cfg.PrivateKey == nil:
		return errors.New("googlewallet: missing private key")
	}
	return nil
}

// validate rejects pass data that would make an empty card.
func validate(p perfilseguro.PassData) error {
	if err := p.Validate(); err != nil {
		return fmt.Errorf("googlewallet: %w", err)
	}
	return nil
}

// sanitizeID keeps the characters Google allows in an object identifier
// (letters, digits, '.', '_', '-') and replaces any other with '_'.
func sanitizeID(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			return r
		}
		return '_'
	}, s)
}
