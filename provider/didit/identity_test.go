package didit_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/didit"
)

func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

// mariaINE is what ine_approved.json's document says.
var mariaINE = perfilseguro.DocumentIdentity{
	DocumentType:   perfilseguro.DocumentINE,
	IssuingCountry: "MEX",
	IssuingState:   "Ciudad de México",
	DocumentNumber: "IDMEX2031456789",
	PersonalNumber: "LOHJ880314MDFPRS09",
	GivenNames:     "MARÍA JOSÉ",
	FirstSurname:   "LÓPEZ",
	SecondSurname:  "HERNÁNDEZ",
	FullName:       "MARÍA JOSÉ LÓPEZ HERNÁNDEZ",
	DateOfBirth:    day("1988-03-14"),
	Sex:            "F",
	Nationality:    "MEX",
	IssueDate:      day("2021-06-10"),
	ExpiryDate:     day("2031-12-31"),
	Address:        "Calle Sur 124 115, Ampliación Asturias, 06890 Cuauhtémoc, CDMX, México",
}

func TestParseDecisionReadsTheDocument(t *testing.T) {
	t.Parallel()
	expired := mariaINE
	expired.IssueDate, expired.ExpiryDate = day("2013-07-01"), day("2023-12-31")

	tests := []struct {
		fixture  string
		status   string
		identity *perfilseguro.DocumentIdentity
		checks   []perfilseguro.RegistryCheck
	}{
		{
			fixture: "ine_approved.json", status: perfilseguro.BiometricApproved, identity: &mariaINE,
			checks: []perfilseguro.RegistryCheck{
				{Registry: "mex_curp", Field: "date_of_birth", Result: perfilseguro.RegistryMatch},
				{Registry: "mex_curp", Field: "full_name", Result: perfilseguro.RegistryMatch},
				{Registry: "mex_curp", Field: "identification_number", Result: perfilseguro.RegistryMatch},
			},
		},
		{
			fixture: "passport_approved.json", status: perfilseguro.BiometricApproved,
			identity: &perfilseguro.DocumentIdentity{
				DocumentType: perfilseguro.DocumentPassport, IssuingCountry: "MEX", DocumentNumber: "G12345678",
				PersonalNumber: "GARJ751102HNLRZN09", GivenNames: "JUAN CARLOS", FirstSurname: "DE LA GARZA",
				SecondSurname: "RUIZ", FullName: "JUAN CARLOS DE LA GARZA RUIZ", DateOfBirth: day("1975-11-02"),
				Sex: "M", Nationality: "MEX", IssueDate: day("2022-04-20"), ExpiryDate: day("2032-04-20"),
			},
		},
		{fixture: "expired_document.json", status: perfilseguro.BiometricDeclined, identity: &expired},
		{
			fixture: "missing_fields.json", status: perfilseguro.BiometricInReview,
			identity: &perfilseguro.DocumentIdentity{
				DocumentType: perfilseguro.DocumentINE, IssuingCountry: "MEX", FullName: "ANA RUIZ",
			},
		},
		{fixture: "two_document_reports.json", status: perfilseguro.BiometricApproved, identity: &mariaINE},
		{
			fixture: "registry_no_match.json", status: perfilseguro.BiometricDeclined, identity: &mariaINE,
			checks: []perfilseguro.RegistryCheck{
				{Registry: "mex_curp", Field: "date_of_birth", Result: perfilseguro.RegistryPartialMatch},
				{Registry: "mex_curp", Field: "full_name", Result: perfilseguro.RegistryNoMatch},
				{Registry: "mex_curp", Field: "identification_number", Result: perfilseguro.RegistryMatch},
				{Registry: "mex_ine", Field: "identification_number", Result: perfilseguro.RegistryNotAvailable},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.fixture, func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(filepath.Join("testdata", tc.fixture))
			require.NoError(t, err)
			d, err := didit.ParseDecision(raw)
			require.NoError(t, err)
			require.Equal(t, tc.status, d.Status)
			require.Equal(t, tc.identity, d.Identity)
			require.Equal(t, tc.checks, d.RegistryChecks)
		})
	}
}

func TestParseDecisionDocumentDatesCount(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("testdata", "expired_document.json"))
	require.NoError(t, err)
	d, err := didit.ParseDecision(raw)
	require.NoError(t, err)
	require.NotNil(t, d.Identity)
	require.True(t, d.Identity.ExpiredOn(day("2026-11-27")), "expired at the check")
	require.False(t, d.Identity.ExpiredOn(day("2023-12-31")), "the expiry day itself still counts")
	require.False(t, perfilseguro.DocumentIdentity{}.ExpiredOn(day("2026-11-27")), "no expiry date never reads as expired")
}

func TestParseDecisionWithoutADocumentReport(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"no reports":       `{"status":"Approved","id_verifications":[],"database_validations":null}`,
		"only unfinished":  `{"status":"In Progress","id_verifications":[{"node_id":"feature_ocr","status":"Not Finished","first_name":"ANA"}]}`,
		"fields absent":    `{"status":"Approved"}`,
		"validations null": `{"status":"Approved","database_validations":[{"status":"Not Finished","match_type":null,"validations":[]}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			d, err := didit.ParseDecision([]byte(body))
			require.NoError(t, err)
			require.Nil(t, d.Identity)
			require.Nil(t, d.RegistryChecks)
		})
	}
}

func TestParseDecisionV2SingularDocument(t *testing.T) {
	t.Parallel()
	body := `{"session_id":"s1","status":"Approved",
		"id_verification":{"status":"Approved","document_type":"Passport","document_number":"G7654321",
			"personal_number":"RUSA900101MDFZTN03","issuing_state":"MEX","first_name":"ANA MARÍA",
			"last_name":"RUIZ SOTO","full_name":"ANA MARÍA RUIZ SOTO","gender":"F","date_of_birth":"1990-01-01",
			"expiration_date":"2030-01-01","date_of_issue":"2020-01-01","nationality":"MEX"},
		"database_validation":{"status":"Approved","match_type":"full_match","issuing_state":"MEX",
			"validations":[{"service_id":"mex_curp","outcome_code":"MATCH","validation":{"full_name":"full_match"}}]}}`
	d, err := didit.ParseDecision([]byte(body))
	require.NoError(t, err)
	require.NotNil(t, d.Identity)
	require.Equal(t, perfilseguro.DocumentPassport, d.Identity.DocumentType)
	require.Equal(t, "ANA MARÍA", d.Identity.GivenNames)
	require.Equal(t, "RUIZ", d.Identity.FirstSurname)
	require.Equal(t, "SOTO", d.Identity.SecondSurname)
	require.Equal(t, "RUSA900101MDFZTN03", d.Identity.PersonalNumber)
	require.Equal(t, []perfilseguro.RegistryCheck{{Registry: "mex_curp", Field: "full_name", Result: perfilseguro.RegistryMatch}}, d.RegistryChecks)
	require.NotNil(t, d.Document)
	require.InDelta(t, 100, *d.Document, 1e-9, "the v2 document verdict still scores")
}

func TestParseDecisionSurnames(t *testing.T) {
	t.Parallel()
	tests := []struct{ lastName, curp, first, second string }{
		{"LÓPEZ HERNÁNDEZ", "", "LÓPEZ", "HERNÁNDEZ"},
		{"DE LA GARZA RUIZ", "", "DE LA GARZA", "RUIZ"},
		{"RUIZ DE VELASCO PÉREZ", "RUPJ800101HDFZRN03", "RUIZ DE VELASCO", "PÉREZ"}, // the CURP's P places the split
		{"PÉREZ RUIZ DE VELASCO", "PERJ800101HDFRZN03", "PÉREZ", "RUIZ DE VELASCO"}, // and here its R
		{"PÉREZ RUIZ DE VELASCO", "", "PÉREZ", "RUIZ DE VELASCO"},                   // no CURP: first word, then the rest
		{"ÁVILA ÑÚÑEZ ORTIZ", "AXXJ800101HDFVXN03", "ÁVILA", "ÑÚÑEZ ORTIZ"},         // Ñ is X in a CURP
		{"DEL RÍO", "", "DEL RÍO", ""},
		{"SMITH", "", "SMITH", ""},
		{"  ", "", "", ""},
	}
	for _, tc := range tests {
		body := `{"status":"Approved","id_verifications":[{"status":"Approved","last_name":"` + tc.lastName +
			`","personal_number":"` + tc.curp + `"}]}`
		d, err := didit.ParseDecision([]byte(body))
		require.NoError(t, err)
		require.NotNil(t, d.Identity, tc.lastName)
		require.Equal(t, tc.first, d.Identity.FirstSurname, tc.lastName)
		require.Equal(t, tc.second, d.Identity.SecondSurname, tc.lastName)
	}
}
