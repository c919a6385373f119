package devsim_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/provider/devsim"
	"github.com/perfilseguro/perfilseguro/provider/didit"
)

var today = time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)

// parseSent reads a stand-in webhook body the way the API does: the decision object through
// Didit's real parser.
func parseSent(t *testing.T, body []byte) perfilseguro.BiometricDecision {
	t.Helper()
	var hook struct {
		Decision json.RawMessage `json:"decision"`
	}
	require.NoError(t, json.Unmarshal(body, &hook))
	d, err := didit.ParseDecision(hook.Decision)
	require.NoError(t, err)
	return d
}

// sent is the webhook the stand-in sends for an approved session showing doc.
func sent(t *testing.T, doc devsim.SimDocument) perfilseguro.BiometricDecision {
	t.Helper()
	data, err := json.Marshal(doc)
	require.NoError(t, err)
	verdict := "Approved"
	s := devsim.BiometricSession{SessionID: "s-1", VendorData: "7", Status: perfilseguro.BiometricApproved,
		Document: &verdict, DocumentData: data, CreatedAt: today}
	return parseSent(t, s.WebhookBody(today))
}

// The default document is an INE in the registered name with a CURP built by RENAPO's rules;
// the expected CURPs were computed independently (identity.ExampleCURP, another engineer's builder).
func TestStandInDocumentIsTheRegisteredNameWithAValidCURP(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, given, first, second, curp string }{
		{"María López Hernández", "MARÍA", "LÓPEZ", "HERNÁNDEZ", "LOHM950203MNLPRR06"},
		{"Ana Ruiz", "ANA", "RUIZ", "", "RUXA950203MNLZXN07"},
		{"Juan Carlos de la Garza Ruiz", "JUAN CARLOS", "DE LA GARZA", "RUIZ", "GARJ950203HNLRZN03"},
		{"José Ñúñez Ávila", "JOSÉ", "ÑÚÑEZ", "ÁVILA", "XUAJ950203HNLXVS08"},
	}
	for _, tc := range tests {
		doc := devsim.DefaultDocument(tc.name, "42", today)
		require.Equal(t, "Identity Card", doc.DocumentType, tc.name)
		require.Equal(t, tc.curp, doc.PersonalNumber, tc.name)
		d := sent(t, doc)
		require.NotNil(t, d.Identity, tc.name)
		require.Equal(t, perfilseguro.DocumentINE, d.Identity.DocumentType)
		require.Equal(t, "MEX", d.Identity.IssuingCountry)
		require.Equal(t, tc.given, d.Identity.GivenNames, tc.name)
		require.Equal(t, tc.first, d.Identity.FirstSurname, tc.name)
		require.Equal(t, tc.second, d.Identity.SecondSurname, tc.name)
		require.Equal(t, tc.curp, d.Identity.PersonalNumber, tc.name)
		require.Equal(t, "Nuevo León", d.Identity.IssuingState, tc.name)
		require.False(t, d.Identity.ExpiredOn(today), tc.name)
		require.LessOrEqual(t, d.Identity.DateOfBirth.AddDate(18, 0, 0).Compare(today), 0, "an adult: %s", tc.name)
		require.NotEmpty(t, d.RegistryChecks)
		for _, c := range d.RegistryChecks {
			require.Equal(t, perfilseguro.RegistryMatch, c.Result, c.Field)
		}
	}
	a, b := devsim.DefaultDocument("Ana Ruiz", "42", today), devsim.DefaultDocument("Ana Ruiz", "43", today)
	require.NotEqual(t, a.PersonalNumber, b.PersonalNumber, "two people do not share a default CURP")
}

// Each one-click case reaches the real parser as the case says.
func TestStandInCasesAreReadByTheRealParser(t *testing.T) {
	t.Parallel()
	base := devsim.DefaultDocument("Ana María Ruiz Soto", "7", today)
	baseline := sent(t, base)
	check := map[string]func(t *testing.T, d perfilseguro.BiometricDecision){
		"name_differs": func(t *testing.T, d perfilseguro.BiometricDecision) {
			require.Equal(t, "ROBERTO CARLOS", d.Identity.GivenNames)
			require.Equal(t, "MENDOZA", d.Identity.FirstSurname)
			require.NotEqual(t, baseline.Identity.PersonalNumber, d.Identity.PersonalNumber, "the CURP follows the name")
		},
		"near_name": func(t *testing.T, d perfilseguro.BiometricDecision) {
			require.Equal(t, baseline.Identity.GivenNames, d.Identity.GivenNames)
			require.NotEqual(t, baseline.Identity.FirstSurname, d.Identity.FirstSurname)
			require.Equal(t, len([]rune(baseline.Identity.FirstSurname)), len([]rune(d.Identity.FirstSurname)))
			diff := 0
			for i, r := range []rune(d.Identity.FirstSurname) {
				if r != []rune(baseline.Identity.FirstSurname)[i] {
					diff++
				}
			}
			require.Equal(t, 1, diff, "one letter off")
		},
		"expired": func(t *testing.T, d perfilseguro.BiometricDecision) {
			require.True(t, d.Identity.ExpiredOn(today))
			require.Equal(t, baseline.Identity.PersonalNumber, d.Identity.PersonalNumber)
		},
		"under_18": func(t *testing.T, d perfilseguro.BiometricDecision) {
			require.True(t, d.Identity.DateOfBirth.AddDate(18, 0, 0).After(today), "under 18 today")
			require.Equal(t, d.Identity.DateOfBirth.Format("060102"), d.Identity.PersonalNumber[4:10], "the CURP carries the birth date")
			require.Equal(t, byte('A'), d.Identity.PersonalNumber[16], "born in the 2000s: homoclave letter")
		},
		"curp_used": func(t *testing.T, d perfilseguro.BiometricDecision) {
			require.Equal(t, devsim.UsedCURP, d.Identity.PersonalNumber)
			require.Equal(t, "1990-01-01", d.Identity.DateOfBirth.Format(time.DateOnly))
			require.Equal(t, baseline.Identity.FullName, d.Identity.FullName)
		},
		"registry_no_match": func(t *testing.T, d perfilseguro.BiometricDecision) {
			require.Equal(t, baseline.Identity, d.Identity)
			require.NotEmpty(t, d.RegistryChecks)
			for _, c := range d.RegistryChecks {
				require.Equal(t, perfilseguro.RegistryNoMatch, c.Result, c.Field)
			}
		},
	}
	require.Len(t, devsim.Cases, len(check))
	for _, c := range devsim.Cases {
		t.Run(c.Value, func(t *testing.T) {
			t.Parallel()
			doc, ok := base.WithCase(c.Value, today)
			require.True(t, ok)
			d := sent(t, doc)
			require.Equal(t, perfilseguro.BiometricApproved, d.Status)
			require.NotNil(t, d.Identity)
			require.NotContains(t, []string{"aprobar", "rechazar", "enviar a revisión"}, strings.ToLower(c.Label))
			check[c.Value](t, d)
		})
	}
	_, ok := base.WithCase("teleported", today)
	require.False(t, ok)
}

// The page shows the registered name on an editable INE; what the developer edits, or the case
// pressed, is what the signed webhook carries, and GetDecision (the reconciler) reads the same.
func TestStandInPageSendsTheDocumentShown(t *testing.T) {
	db, _ := pgtest.New(t)
	var userID int64
	require.NoError(t, db.Get(&userID, `INSERT INTO users (nombre, id_validado) VALUES ('María López Hernández', 'PS-5252-5252-52') RETURNING id`))
	end := &webhookEndpoint{t: t}
	hook := httptest.NewServer(end)
	t.Cleanup(hook.Close)
	sim := devsim.Biometric{DB: db, BaseURL: "http://localhost:8080"}
	page := devsim.BiometricPage{Sim: sim, WebhookURL: hook.URL, WebhookSecret: biometricSecret, HTTP: hook.Client()}
	mux := http.NewServeMux()
	mux.Handle(devsim.BiometricPath+"{session}", page)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	ctx := context.Background()

	open := func() string {
		s, err := sim.CreateSession(ctx, perfilseguro.BiometricSessionRequest{UserID: userID, CallbackURL: "http://localhost:8080/return"})
		require.NoError(t, err)
		return s.SessionID
	}

	// GET: the registered name, upper case as an INE prints it, with its CURP, editable.
	id := open()
	res, err := client.Get(srv.URL + devsim.BiometricPath + id)
	require.NoError(t, err)
	html, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	for _, s := range []string{`name="given_names" value="MARÍA"`, `name="first_surname" value="LÓPEZ"`,
		`name="second_surname" value="HERNÁNDEZ"`, `name="personal_number" value="LOHM`, `>Aprobar</button>`,
		`>Rechazar</button>`, `>Enviar a revisión</button>`, `value="curp_used"`} {
		require.Contains(t, string(html), s)
	}

	// POST Aprobar with an edited name and no CURP: the CURP is built from the edit.
	res, err = client.PostForm(srv.URL+devsim.BiometricPath+id, url.Values{"decision": {"approve"},
		"given_names": {"maría  josé"}, "first_surname": {"López"}, "second_surname": {"Hernández"},
		"date_of_birth": {"1988-03-14"}, "sex": {"F"}, "state": {"DF"}, "personal_number": {""}})
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	require.Len(t, end.deliveries(), 1)
	d := parseSent(t, []byte(end.deliveries()[0]))
	require.Equal(t, perfilseguro.BiometricApproved, d.Status)
	require.Equal(t, "MARÍA JOSÉ", d.Identity.GivenNames)
	require.Equal(t, "LOHJ880314MDFPRS09", d.Identity.PersonalNumber) // computed independently (identity.CURPCheckDigit)
	again, err := sim.GetDecision(ctx, id)
	require.NoError(t, err)
	require.Equal(t, d.Identity, again.Identity, "the reconciler reads the same document")
	require.Equal(t, d.RegistryChecks, again.RegistryChecks)

	// A one-click case on a new session: approved with the case's document.
	id = open()
	res, err = client.PostForm(srv.URL+devsim.BiometricPath+id, url.Values{"case": {"curp_used"}})
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	require.Len(t, end.deliveries(), 2)
	d = parseSent(t, []byte(end.deliveries()[1]))
	require.Equal(t, perfilseguro.BiometricApproved, d.Status)
	require.Equal(t, devsim.UsedCURP, d.Identity.PersonalNumber)
	require.Equal(t, "MARÍA", d.Identity.GivenNames)

	// An unknown case is refused and nothing is sent.
	id = open()
	res, err = client.PostForm(srv.URL+devsim.BiometricPath+id, url.Values{"case": {"teleported"}})
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Len(t, end.deliveries(), 2)
}
