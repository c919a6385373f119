package applewallet

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// Pass colours: white text on the brand's deep blue.
const (
	backgroundColor = "rgb(30, 58, 138)"
	foregroundColor = "rgb(255, 255, 255)"
	labelColor      = "rgb(191, 219, 254)"
)

// passDescription is what VoiceOver and the lock screen read.
const passDescription = "Perfil Seguro – identidad validada"

// esMXDate is the es-MX short date layout (dd/mm/yyyy).
const esMXDate = "02/01/2006"

type passField struct {
	Key   string `json:"key"`
	Label string `json:"label,omitempty"`
	Value string `json:"value"`
}

type passStructure struct {
	PrimaryFields   []passField `json:"primaryFields"`
	SecondaryFields []passField `json:"secondaryFields"`
	AuxiliaryFields []passField `json:"auxiliaryFields"`
	BackFields      []passField `json:"backFields,omitempty"`
}

type passBarcode struct {
	Format          string `json:"format"`
	Message         string `json:"message"`
	MessageEncoding string `json:"messageEncoding"`
	AltText         string `json:"altText,omitempty"`
}

type pass struct {
	FormatVersion       int           `json:"formatVersion"`
	PassTypeIdentifier  string        `json:"passTypeIdentifier"`
	SerialNumber        string        `json:"serialNumber"`
	TeamIdentifier      string        `json:"teamIdentifier"`
	OrganizationName    string        `json:"organizationName"`
	Description         string        `json:"description"`
	LogoText            string        `json:"logoText"`
	BackgroundColor     string        `json:"backgroundColor"`
	ForegroundColor     string        `json:"foregroundColor"`
	LabelColor          string        `json:"labelColor"`
	ExpirationDate      string        `json:"expirationDate"`
	Voided              bool          `json:"voided,omitempty"` // an expired or revoked validation
	WebServiceURL       string        `json:"webServiceURL,omitempty"`
	AuthenticationToken string        `json:"authenticationToken,omitempty"`
	Generic             passStructure `json:"generic"`
	Barcodes            []passBarcode `json:"barcodes"`
	Barcode             passBarcode   `json:"barcode"` // for iOS 6-8
}

// voidedStates are the words a voided pass shows (the spec's and DECISIONS.md's).
var voidedStates = map[string]string{perfilseguro.PassExpired: "Expirado", perfilseguro.PassRevoked: "Revocado",
	perfilseguro.PassDeleted: "Cuenta eliminada", perfilseguro.PassAnnulled: "Validación anulada"}

// IDCapText is what a pass says when the identity document's expiry (date, dd/mm/yyyy) ends the
// validity before the plan does.
func IDCapText(date string) string { return "Vigente hasta " + date + " (vence tu identificación)" }

// passJSON renders pass.json for p.
func (b *Builder) passJSON(p perfilseguro.PassData) ([]byte, error) {
	if err := validate(p); err != nil {
		return nil, err
	}
	qr := passBarcode{
		Format:          "PKBarcodeFormatQR",
		Message:         p.VerifyURL,
		MessageEncoding: "iso-8859-1",
		AltText:         p.ProfileID,
	}
	doc := pass{
		FormatVersion:      1,
		PassTypeIdentifier: b.cfg.PassTypeIdentifier,
		SerialNumber:       p.ProfileID,
		TeamIdentifier:     b.cfg.TeamIdentifier,
		OrganizationName:   b.cfg.OrganizationName,
		Description:        passDescription,
		LogoText:           "Perfil Seguro",
		BackgroundColor:    backgroundColor,
		ForegroundColor:    foregroundColor,
		LabelColor:         labelColor,
		ExpirationDate:     p.ValidUntil.Format(time.RFC3339),
		Generic: passStructure{
			PrimaryFields: []passField{{Key: "name", Label: "Nombre", Value: p.Name}},
			SecondaryFields: []passField{
				{Key: "profileId", Label: "ID de perfil", Value: p.ProfileID},
				{Key: "level", Label: "Verificación", Value: fmt.Sprintf("Nivel %d", p.Level)},
			},
			AuxiliaryFields: []passField{
				{Key: "validUntil", Label: "Vigente hasta", Value: p.ValidUntil.Format(esMXDate)},
			},
			BackFields: []passField{
				{Key: "verifyUrl", Label: "Verificar identidad", Value: p.VerifyURL},
			},
		},
		Barcodes: []passBarcode{qr},
		Barcode:  qr,
	}
	// Passes that update themselves: both or neither (Apple ignores a web service without a token
	// of at least 16 characters).
	if p.WebServiceURL != "" && p.AuthToken != "" {
		doc.WebServiceURL, doc.AuthenticationToken = p.WebServiceURL, p.AuthToken
	}
	// The ID expires before the plan ends (issue 52): its date on the face, and why on the back.
	if p.IDExpiresOn != nil && p.Status == perfilseguro.PassValid {
		until := p.IDExpiresOn.UTC().Format(esMXDate)
		doc.Generic.AuxiliaryFields[0].Value = until
		doc.Generic.BackFields = append(doc.Generic.BackFields,
			passField{Key: "validity", Label: "Vigencia", Value: IDCapText(until)})
	}
	// A pass whose validation ended is voided and says why on its face, where "Vigente hasta" was.
	if state, ok := voidedStates[p.Status]; ok {
		doc.Voided = true
		doc.Generic.AuxiliaryFields = []passField{{Key: "status", Label: "Estado", Value: state}}
	}
	// A deleted account's pass shows no one: only its ID and that it is void.
	if p.Status == perfilseguro.PassDeleted {
		doc.Generic.PrimaryFields = []passField{{Key: "name", Label: "Nombre", Value: "—"}}
		doc.Generic.SecondaryFields = doc.Generic.SecondaryFields[:1]
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("applewallet: pass.json: %w", err)
	}
	return out, nil
}

// validate rejects pass data that would make an empty or unreadable pass.
func validate(p perfilseguro.PassData) error {
	if err := p.Validate(); err != nil {
		return fmt.Errorf("applewallet: %w", err)
	}
	// The QR message is declared ISO-8859-1; a URL is ASCII, anything else is a bug upstream.
	for i := 0; i < len(p.VerifyURL); i++ {
		if p.VerifyURL[i] >= 0x80 {
			return errors.New("applewallet: verify URL is not ASCII")
		}
	}
	return nil
}
