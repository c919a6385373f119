package didit_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/didit"
	"github.com/perfilseguro/perfilseguro/provider/outbound/outboundtest"
)

const sessionID = "11111111-2222-3333-4444-555555555555"

// setup starts a fake Didit API answering status/body and returns a client pointed at it.
func setup(t *testing.T, status int, respBody string) (*didit.Client, *outboundtest.Request) {
	t.Helper()
	url, got := outboundtest.Server(t, status, respBody)
	return didit.New(didit.Config{BaseURL: url, APIKey: "didit-key", WorkflowID: "wf-1234", WebhookSecret: "whsec"}), got
}

const createdBody = `{
	"session_id": "` + sessionID + `",
	"session_number": 43762,
	"session_token": "tok_xyz",
	"url": "https://verify.didit.me/session/tok_xyz",
	"vendor_data": "42",
	"metadata": null,
	"status": "Not Started",
	"callback": "https://perfilseguro.mx/return?userId=42",
	"workflow_id": "wf-1234"
}`

func TestCreateSessionWireFormat(t *testing.T) {
	t.Parallel()
	c, got := setup(t, http.StatusCreated, createdBody)
	s, err := c.CreateSession(context.Background(), perfilseguro.BiometricSessionRequest{
		UserID: 42, CallbackURL: "https://perfilseguro.mx/return?userId=42",
	})
	require.NoError(t, err)

	require.Equal(t, http.MethodPost, got.Method)
	require.Equal(t, "/v3/session/", got.Path)
	require.Equal(t, "didit-key", got.Header.Get("x-api-key"))
	require.Equal(t, "application/json", got.Header.Get("Content-Type"))
	require.JSONEq(t, `{
		"workflow_id": "wf-1234",
		"vendor_data": "42",
		"callback": "https://perfilseguro.mx/return?userId=42"
	}`, string(got.Body))

	require.Equal(t, sessionID, s.SessionID)
	require.Equal(t, "https://verify.didit.me/session/tok_xyz", s.URL)
	require.JSONEq(t, createdBody, string(s.Raw))
}

func TestCreateSessionSendsExpectedDetails(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		req  perfilseguro.BiometricSessionRequest
		want string // the expected_details object, or "" when it must be absent
	}{
		{
			name: "name and birth date",
			req: perfilseguro.BiometricSessionRequest{UserID: 42, ExpectedGivenNames: " María  José ",
				ExpectedSurnames: "López Hernández", ExpectedBirthDate: time.Date(1988, 3, 14, 0, 0, 0, 0, time.UTC)},
			want: `{"first_name": "María José", "last_name": "López Hernández", "date_of_birth": "1988-03-14"}`,
		},
		{
			name: "name only",
			req:  perfilseguro.BiometricSessionRequest{UserID: 42, ExpectedGivenNames: "Ana", ExpectedSurnames: "Ruiz"},
			want: `{"first_name": "Ana", "last_name": "Ruiz"}`,
		},
		{
			name: "birth date only",
			req:  perfilseguro.BiometricSessionRequest{UserID: 42, ExpectedBirthDate: time.Date(2001, 12, 31, 0, 0, 0, 0, time.UTC)},
			want: `{"date_of_birth": "2001-12-31"}`,
		},
		{name: "nothing expected", req: perfilseguro.BiometricSessionRequest{UserID: 42, ExpectedGivenNames: "  "}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, got := setup(t, http.StatusCreated, createdBody)
			_, err := c.CreateSession(context.Background(), tc.req)
			require.NoError(t, err)
			var body map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(got.Body, &body))
			require.JSONEq(t, `"wf-1234"`, string(body["workflow_id"]))
			require.JSONEq(t, `"42"`, string(body["vendor_data"]))
			if tc.want == "" {
				require.NotContains(t, body, "expected_details")
				return
			}
			require.JSONEq(t, tc.want, string(body["expected_details"]))
		})
	}
}

func TestCreateSessionErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		status    int
		body      string
		permanent bool
	}{
		{400, `{"workflow_id":["Workflow not found"]}`, true},
		{403, `{"detail":"Invalid API key"}`, false},
		{429, `{"detail":"Request was throttled"}`, false},
		{500, ``, false},
		{201, `{"session_id":""}`, false}, // malformed success: no URL to open
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.status), func(t *testing.T) {
			t.Parallel()
			c, _ := setup(t, tc.status, tc.body)
			_, err := c.CreateSession(context.Background(), perfilseguro.BiometricSessionRequest{UserID: 1})
			require.Error(t, err)
			require.Equal(t, tc.permanent, errors.Is(err, perfilseguro.ErrPermanent), err.Error())
		})
	}
}

// decisionJSON is a v3 decision shaped like Didit's documentation example.
func decisionJSON(status string) string {
	return `{
		"session_id": "` + sessionID + `",
		"session_number": 43762,
		"session_url": "https://verify.didit.me/session/` + sessionID + `",
		"status": "` + status + `",
		"workflow_id": "wf-1234",
		"features": ["ID_VERIFICATION", "LIVENESS", "FACE_MATCH"],
		"vendor_data": "42",
		"metadata": null,
		"callback": "https://perfilseguro.mx/return",
		"id_verifications": [{"node_id": "feature_ocr", "status": "Approved", "document_type": "Identity Card", "issuing_state": "MEX", "warnings": []}],
		"liveness_checks": [{"node_id": "feature_liveness", "status": "Approved", "method": "PASSIVE", "score": 89.92, "age_estimation": 24.3, "warnings": []}],
		"face_matches": [{"node_id": "feature_face", "status": "Approved", "score": 75.5, "warnings": []}],
		"aml_screenings": [],
		"reviews": [],
		"created_at": "2026-07-24T08:54:25.443172Z"
	}`
}

func TestGetDecisionWireFormatAndScores(t *testing.T) {
	t.Parallel()
	body := decisionJSON("Approved")
	c, got := setup(t, http.StatusOK, body)
	d, err := c.GetDecision(context.Background(), sessionID)
	require.NoError(t, err)

	require.Equal(t, http.MethodGet, got.Method)
	require.Equal(t, "/v3/session/"+sessionID+"/decision/", got.Path)
	require.Equal(t, "didit-key", got.Header.Get("x-api-key"))
	require.Empty(t, got.Body)

	require.Equal(t, sessionID, d.SessionID)
	require.Equal(t, perfilseguro.BiometricApproved, d.Status)
	require.Equal(t, "42", d.VendorData)
	require.NotNil(t, d.FaceMatch)
	require.InDelta(t, 75.5, *d.FaceMatch, 1e-9)
	require.NotNil(t, d.Liveness)
	require.InDelta(t, 89.92, *d.Liveness, 1e-9)
	require.NotNil(t, d.Document)
	require.InDelta(t, 100, *d.Document, 1e-9)
	require.NotNil(t, d.Overall)
	require.InDelta(t, (75.5+89.92+100)/3, *d.Overall, 1e-9)
	require.JSONEq(t, body, string(d.Raw))
}

func TestGetDecisionUnknownSessionIsPermanent(t *testing.T) {
	t.Parallel()
	c, _ := setup(t, http.StatusNotFound, `{"detail":"Not found."}`)
	_, err := c.GetDecision(context.Background(), "nope")
	require.ErrorIs(t, err, perfilseguro.ErrPermanent)
	var apiErr *didit.APIError
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, http.StatusNotFound, apiErr.HTTPStatus)
}

func TestDecisionStatusMapping(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"Not Started":   perfilseguro.BiometricNotStarted,
		"In Progress":   perfilseguro.BiometricInProgress,
		"Approved":      perfilseguro.BiometricApproved,
		"Declined":      perfilseguro.BiometricDeclined,
		"In Review":     perfilseguro.BiometricInReview,
		"Resubmitted":   perfilseguro.BiometricResubmitted,
		"Expired":       perfilseguro.BiometricExpired,
		"Abandoned":     perfilseguro.BiometricAbandoned,
		"Awaiting User": perfilseguro.BiometricInProgress,
		"Kyc Expired":   perfilseguro.BiometricExpired,
		"in review":     perfilseguro.BiometricInReview,
	}
	for didStatus, want := range cases {
		d, err := didit.ParseDecision([]byte(decisionJSON(didStatus)))
		require.NoError(t, err, didStatus)
		require.Equal(t, want, d.Status, didStatus)
	}
	_, err := didit.ParseDecision([]byte(decisionJSON("Teleported")))
	require.Error(t, err, "an unknown status must not be guessed")
}

func TestDecisionScoresMissingAreNil(t *testing.T) {
	t.Parallel()
	d, err := didit.ParseDecision([]byte(`{"session_id":"s","status":"Not Started","vendor_data":null,
		"id_verifications":[], "liveness_checks":[], "face_matches":[{"status":"Not Finished","score":null}]}`))
	require.NoError(t, err)
	require.Empty(t, d.VendorData)
	require.Nil(t, d.FaceMatch)
	require.Nil(t, d.Liveness)
	require.Nil(t, d.Document)
	require.Nil(t, d.Overall)
}

func TestDecisionScoreRules(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name                     string
		body                     string
		face, live, doc, overall *float64
	}{
		{
			name: "declined document counts as 0",
			body: `{"status":"Declined","id_verifications":[{"status":"Declined"}],"face_matches":[{"status":"Declined","score":20}]}`,
			face: ptr(20), doc: ptr(0), overall: ptr(10),
		},
		{
			name: "document in review has no score",
			body: `{"status":"In Review","id_verifications":[{"status":"In Review"}],"liveness_checks":[{"status":"Approved","score":96}]}`,
			live: ptr(96), overall: ptr(96),
		},
		{
			name: "the last attempt with a score wins",
			body: `{"status":"Approved","liveness_checks":[{"status":"Declined","score":12},{"status":"Approved","score":97.5},{"status":"Not Finished","score":null}],
				"id_verifications":[{"status":"Declined"},{"status":"Approved"}]}`,
			live: ptr(97.5), doc: ptr(100), overall: ptr((97.5 + 100) / 2),
		},
		{
			name: "v2 singular objects are read when the arrays are absent",
			body: `{"status":"Approved","face_match":{"status":"Approved","score":88},"liveness":{"status":"Approved","score":92},"id_verification":{"status":"Approved"}}`,
			face: ptr(88), live: ptr(92), doc: ptr(100), overall: ptr((88 + 92 + 100) / 3.0),
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, err := didit.ParseDecision([]byte(tc.body))
			require.NoError(t, err)
			requireScore(t, "face", tc.face, d.FaceMatch)
			requireScore(t, "liveness", tc.live, d.Liveness)
			requireScore(t, "document", tc.doc, d.Document)
			requireScore(t, "overall", tc.overall, d.Overall)
		})
	}
}

func ptr(v float64) *float64 { return &v }

func requireScore(t *testing.T, name string, want, got *float64) {
	t.Helper()
	if want == nil {
		require.Nil(t, got, name)
		return
	}
	require.NotNil(t, got, name)
	require.InDelta(t, *want, *got, 1e-9, name)
}

func TestDecisionRawIsACopy(t *testing.T) {
	t.Parallel()
	buf := []byte(decisionJSON("Approved"))
	d, err := didit.ParseDecision(buf)
	require.NoError(t, err)
	buf[0] = 'X'
	require.True(t, json.Valid(d.Raw), "Raw must not alias the caller's buffer")
}
