package api

import (
	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

func (s *Server) mountLegal() {
	fuego.Get(s.f, "/api/legal", s.legal, option.Tags("Privacidad"),
		option.Summary("Datos del aviso de privacidad: versión, responsable, finalidades necesarias y voluntarias, plazos de conservación y autoridad"))
}

// RetentionJSON is one row of the notice's retention table.
type RetentionJSON struct {
	Key    string `json:"key"`
	Data   string `json:"data"`
	Period string `json:"period"`
}

// PrimaryPurposeJSON is a use the service needs (finalidad necesaria).
type PrimaryPurposeJSON struct {
	Label       string `json:"label"`
	Description string `json:"description"`
}

// AuthorityJSON is the data protection authority a person may turn to.
type AuthorityJSON struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

// SecondaryPurposeJSON is a use the person may object to.
type SecondaryPurposeJSON struct {
	Purpose     string `json:"purpose" enum:"partner_notifications,reminders"`
	Label       string `json:"label"`
	Description string `json:"description"`
}

// LegalResponse is what the notice and the terms pages show that lives in the code or the
// configuration: the version in force, the responsible party and the retention periods.
type LegalResponse struct {
	Version           string                 `json:"version"`
	Date              string                 `json:"date"` // YYYY-MM-DD the version took effect
	LegalName         string                 `json:"legalName"`
	LegalAddress      string                 `json:"legalAddress"`
	PrivacyEmail      string                 `json:"privacyEmail"`
	SupportEmail      string                 `json:"supportEmail"`
	Retention         []RetentionJSON        `json:"retention"`
	PrimaryPurposes   []PrimaryPurposeJSON   `json:"primaryPurposes"`
	SecondaryPurposes []SecondaryPurposeJSON `json:"secondaryPurposes"`
	// Authority is where a person may file a procedimiento de protección de derechos or a denuncia.
	Authority AuthorityJSON `json:"authority"`
}

func (s *Server) legal(c fuego.ContextNoBody) (LegalResponse, error) {
	c.SetHeader("Cache-Control", "public, max-age=300")
	res := LegalResponse{Version: perfilseguro.PrivacyNoticeVersion, Date: perfilseguro.PrivacyNoticeDate,
		LegalName: s.cfg.LegalName, LegalAddress: s.cfg.LegalAddress, PrivacyEmail: s.cfg.PrivacyEmail,
		SupportEmail: s.cfg.SupportEmail,
		Authority:    AuthorityJSON{perfilseguro.DataProtectionAuthority.Name, perfilseguro.DataProtectionAuthority.URL}}
	for _, r := range perfilseguro.RetentionPeriods {
		res.Retention = append(res.Retention, RetentionJSON{Key: r.Key, Data: r.Data, Period: r.Period})
	}
	for _, p := range perfilseguro.PrimaryPurposes {
		res.PrimaryPurposes = append(res.PrimaryPurposes, PrimaryPurposeJSON{p.Label, p.Description})
	}
	for _, p := range perfilseguro.SecondaryPurposes {
		res.SecondaryPurposes = append(res.SecondaryPurposes, SecondaryPurposeJSON{p.Purpose, p.Label, p.Description})
	}
	return res, nil
}
