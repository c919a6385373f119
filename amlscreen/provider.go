package amlscreen

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Didit's AML screening, as its decision carries it (docs.didit.me, "AML screening report" and
// the data models reference): the v3 decision has the plural aml_screenings[], one per AML step
// of the workflow; v1/v2 decisions and webhooks the singular aml. Each has a status, total_hits
// and hits[]: id, caption (the listed name), match_score (0-100, identity confidence; older
// payloads give score 0-1), risk_score, datasets, review_status ("False Positive" when Didit's
// own match threshold ruled it out) and properties (alias, birthDate, nationality…). A webhook
// stores the decision under "decision".
type diditDecision struct {
	AMLScreenings []diditAML      `json:"aml_screenings"`
	AML           *diditAML       `json:"aml"`
	Decision      json.RawMessage `json:"decision"`
}

type diditAML struct {
	Status    string     `json:"status"`
	TotalHits int        `json:"total_hits"`
	Hits      []diditHit `json:"hits"`
}

type diditHit struct {
	ID           string              `json:"id"`
	Caption      string              `json:"caption"`
	MatchScore   *float64            `json:"match_score"`
	Score        *float64            `json:"score"`
	RiskScore    *float64            `json:"risk_score"`
	Datasets     []string            `json:"datasets"`
	ReviewStatus string              `json:"review_status"`
	Properties   map[string][]string `json:"properties"`
}

// providerAML finds the AML screenings a stored decision carries; ok is false when it has none
// (the workflow ran no AML step, or the decision was not kept).
func providerAML(raw json.RawMessage) (screenings []diditAML, ok bool) {
	if len(raw) == 0 {
		return nil, false
	}
	var d diditDecision
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, false
	}
	if d.AMLScreenings == nil && d.AML == nil && len(d.Decision) > 0 && string(d.Decision) != "null" {
		return providerAML(d.Decision)
	}
	if d.AML != nil {
		d.AMLScreenings = append(d.AMLScreenings, *d.AML)
	}
	var out []diditAML
	for _, s := range d.AMLScreenings {
		if s.Status == "" || strings.EqualFold(s.Status, "Not Started") {
			continue
		}
		out = append(out, s)
	}
	return out, len(out) > 0
}

// providerRecord is the provider's screening of the person as a Record with a hit per listed
// match the provider did not rule out itself. Its hits are not blocking: the provider's datasets
// mix sanctions with PEP and adverse media, so the compliance officer decides what they mean.
func providerRecord(raw json.RawMessage, s Subject) (Record, bool) {
	screenings, ok := providerAML(raw)
	if !ok {
		return Record{}, false
	}
	r := Record{Subject: SubjectPerson, ScreenedName: s.Name, ScreenedBirth: s.BirthDate, Source: SourceProvider}
	seen := map[string]bool{}
	for _, sc := range screenings {
		for _, h := range sc.Hits {
			if h.ID == "" || seen[h.ID] || strings.EqualFold(h.ReviewStatus, "False Positive") {
				continue
			}
			seen[h.ID] = true
			entry, err := json.Marshal(h)
			if err != nil {
				entry = []byte(`{}`)
			}
			score := providerScore(h)
			reasons := []string{fmt.Sprintf("El proveedor de verificación la señaló con %.0f %% de coincidencia.", score*100)}
			if len(h.Datasets) > 0 {
				reasons = append(reasons, "Fuentes del proveedor: "+strings.Join(h.Datasets, ", ")+".")
			}
			if h.RiskScore != nil {
				reasons = append(reasons, fmt.Sprintf("Riesgo según el proveedor: %.0f de 100.", *h.RiskScore))
			}
			name := h.Caption
			if name == "" {
				name = h.ID
			}
			r.Hits = append(r.Hits, Hit{ListName: "Proveedor de verificación (Didit)", EntryID: h.ID, MatchedName: name,
				Score: score, Reasons: reasons, Entry: entry})
		}
	}
	r.CandidateCount = len(r.Hits)
	return r, true
}

// providerScore is the hit's match score on 0..1: match_score is 0-100; the older score 0-1.
func providerScore(h diditHit) float64 {
	var v float64
	switch {
	case h.MatchScore != nil:
		v = *h.MatchScore / 100
	case h.Score != nil && *h.Score > 1:
		v = *h.Score / 100
	case h.Score != nil:
		v = *h.Score
	}
	return min(max(v, 0), 1)
}
