package api

import (
	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

func (s *Server) mountLegal() {
	fuego.Get(s.f, "/api/legal", s.legal, option.Tags("Privacidad"),
		option.Summary("Datos del aviso de privacidad: versión, responsable, plazos de conservación y finalidades secundarias"))
}

// RetentionJSON is one row of the notice's retention table.
type RetentionJSON struct {
	Key    string `json:"key"`
	Data   string `json:"data"`
	Period string `json:"period"`
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
	SecondaryPurposes []SecondaryPurposeJSON `json:"secondaryPurposes"`
}

func (s *Server) legal(c fuego.ContextNoBody) (LegalResponse, error) {
	c.SetHeader("Cache-Control", "public, max-age=300")
	res := LegalResponse{Version: perfilseguro.PrivacyNoticeVersion, Date: perfilseguro.PrivacyNoticeDate,
		LegalName: s.cfg.LegalName, LegalAddress: s.cfg.LegalAddress, PrivacyEmail: s.cfg.PrivacyEmail,
		SupportEmail: s.cfg.SupportEmail}
	for _, r := range perfilseguro.RetentionPeriods {
		res.Retention = append(res.Retention, RetentionJSON{Key: r.Key, Data: r.Data, Period: r.Period})
	}
	for _, p := range perfilseguro.SecondaryPurposes {
		res.SecondaryPurposes = append(res.SecondaryPurposes, SecondaryPurposeJSON{p.Purpose, p.Label, p.Description})
	}
	return res, nil
}
