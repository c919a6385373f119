package didit

import (
	"encoding/json"
	"fmt"
	"strings"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// statuses maps Didit's session statuses (compared case-insensitively) to ours.
// "Awaiting User" (the user must act again) reads as In Progress, and
// "Kyc Expired" (an approved session whose document has since expired) as Expired.
var statuses = map[string]string{
	"not started":   perfilseguro.BiometricNotStarted,
	"in progress":   perfilseguro.BiometricInProgress,
	"awaiting user": perfilseguro.BiometricInProgress,
	"approved":      perfilseguro.BiometricApproved,
	"declined":      perfilseguro.BiometricDeclined,
	"in review":     perfilseguro.BiometricInReview,
	"resubmitted":   perfilseguro.BiometricResubmitted,
	"expired":       perfilseguro.BiometricExpired,
	"kyc expired":   perfilseguro.BiometricExpired,
	"abandoned":     perfilseguro.BiometricAbandoned,
}

// NormalizeStatus maps a Didit session status to one of the perfilseguro.Biometric*
// constants; ok is false for a status we do not know.
func NormalizeStatus(s string) (status string, ok bool) {
	status, ok = statuses[strings.ToLower(strings.TrimSpace(s))]
	return status, ok
}

// report is the part of a v3 feature report we read (face_matches[],
// liveness_checks[], id_verifications[] all share status and, where it applies, score).
type report struct {
	Status string   `json:"status"`
	Score  *float64 `json:"score"`
}

// decisionBody is the part of GET /v3/session/{id}/decision/ we read. The
// singular objects are the v2 shape, read only when the v3 arrays are absent.
type decisionBody struct {
	SessionID           string               `json:"session_id"`
	Status              string               `json:"status"`
	VendorData          *string              `json:"vendor_data"`
	FaceMatches         []report             `json:"face_matches"`
	LivenessChecks      []report             `json:"liveness_checks"`
	IDVerifications     []idVerification     `json:"id_verifications"`
	DatabaseValidations []databaseValidation `json:"database_validations"`
	FaceMatch           *report              `json:"face_match"`
	Liveness            *report              `json:"liveness"`
	IDVerification      *idVerification      `json:"id_verification"`
	DatabaseValidation  *databaseValidation  `json:"database_validation"`
}

// ParseDecision reads a Didit decision (the decision endpoint's body, or the
// `decision` object of a webhook) into our BiometricDecision, keeping raw.
//
// Scores, all 0..100, nil when Didit has not produced them:
//   - FaceMatch: face_matches[].score, the 1:1 similarity between selfie and document portrait.
//   - Liveness: liveness_checks[].score, the liveness confidence.
//   - Document: id_verifications[].status. Didit gives the document check a verdict,
//     not a score, so Approved counts as 100 and Declined as 0; any other state is nil.
//   - Overall: Didit has no overall score; it is the mean of the component scores present.
//
// Identity is what the last completed id_verifications[] report read from the document
// (identity.go); RegistryChecks are database_validations[] field by field.
//
// When a workflow ran a step more than once (e.g. a recapture), the last report
// that carries a value wins: it is the attempt the session's status rests on.
func ParseDecision(raw []byte) (perfilseguro.BiometricDecision, error) {
	var body decisionBody
	if err := json.Unmarshal(raw, &body); err != nil {
		return perfilseguro.BiometricDecision{}, fmt.Errorf("decode decision: %w", err)
	}
	status, ok := NormalizeStatus(body.Status)
	if !ok {
		return perfilseguro.BiometricDecision{}, fmt.Errorf("unknown decision status %q", body.Status)
	}
	d := perfilseguro.BiometricDecision{
		SessionID: body.SessionID,
		Status:    status,
		FaceMatch: lastScore(body.FaceMatches, body.FaceMatch),
		Liveness:  lastScore(body.LivenessChecks, body.Liveness),
		Document:  documentScore(idReports(body.IDVerifications), idReport(body.IDVerification)),
		Raw:       json.RawMessage(append([]byte(nil), raw...)),
		Identity:  documentIdentity(body.IDVerifications, body.IDVerification),
	}
	d.RegistryChecks = registryChecks(body.DatabaseValidations, body.DatabaseValidation)
	if body.VendorData != nil {
		d.VendorData = *body.VendorData
	}
	d.Overall = mean(d.FaceMatch, d.Liveness, d.Document)
	return d, nil
}

func withLegacy(reports []report, legacy *report) []report {
	if len(reports) == 0 && legacy != nil {
		return []report{*legacy}
	}
	return reports
}

func lastScore(reports []report, legacy *report) *float64 {
	reports = withLegacy(reports, legacy)
	for i := len(reports) - 1; i >= 0; i-- {
		if s := reports[i].Score; s != nil {
			v := *s
			return &v
		}
	}
	return nil
}

func documentScore(reports []report, legacy *report) *float64 {
	reports = withLegacy(reports, legacy)
	for i := len(reports) - 1; i >= 0; i-- {
		if reports[i].Status == "" {
			continue
		}
		// The latest report with a status decides, even when it is still In Review.
		var v float64
		switch st, _ := NormalizeStatus(reports[i].Status); st {
		case perfilseguro.BiometricApproved:
			v = 100
		case perfilseguro.BiometricDeclined:
			v = 0
		default:
			return nil
		}
		return &v
	}
	return nil
}

func mean(scores ...*float64) *float64 {
	var sum float64
	var n int
	for _, s := range scores {
		if s != nil {
			sum += *s
			n++
		}
	}
	if n == 0 {
		return nil
	}
	v := sum / float64(n)
	return &v
}
