package api_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/identity"
	"github.com/perfilseguro/perfilseguro/provider/googlewallet"
)

// applePassJSON is what the pass tests read of pass.json.
type applePassJSON struct {
	ExpirationDate string `json:"expirationDate"`
	Generic        struct {
		PrimaryFields   []passFieldJSON `json:"primaryFields"`
		AuxiliaryFields []passFieldJSON `json:"auxiliaryFields"`
		BackFields      []passFieldJSON `json:"backFields"`
	} `json:"generic"`
}

type passFieldJSON struct {
	Key, Label, Value string
}

// applePass downloads the person's Apple pass and reads its pass.json.
func (e *env) applePass(t *testing.T, id int64) applePassJSON {
	t.Helper()
	res, body := get(t, e.signedIn(t, id), e.srv.URL+"/api/wallet/apple/"+itoa(id))
	require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	var pass applePassJSON
	require.NoError(t, json.Unmarshal(unzip(t, body)["pass.json"], &pass))
	return pass
}

// googleObject is the generic object of the person's Google Wallet save link.
type googleObject struct {
	Header struct {
		DefaultValue struct{ Value string } `json:"defaultValue"`
	} `json:"header"`
	TextModulesData []struct {
		ID, Header, Body string
	} `json:"textModulesData"`
	ValidTimeInterval struct {
		End struct{ Date string } `json:"end"`
	} `json:"validTimeInterval"`
}

func (e *env) googlePass(t *testing.T, id int64) googleObject {
	t.Helper()
	res, body := get(t, e.signedIn(t, id), e.srv.URL+"/api/wallet/google/"+itoa(id))
	require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	var b struct {
		AddToWalletURL string `json:"addToWalletUrl"`
	}
	require.NoError(t, json.Unmarshal(body, &b))
	_, _, dir := passSigners(t)
	key, err := googlewallet.EnsureDevKey(dir)
	require.NoError(t, err)
	var claims struct {
		jwt.RegisteredClaims
		Payload struct {
			GenericObjects []googleObject `json:"genericObjects"`
		} `json:"payload"`
	}
	_, err = jwt.ParseWithClaims(strings.TrimPrefix(b.AddToWalletURL, googlewallet.SaveURLPrefix), &claims,
		func(*jwt.Token) (any, error) { return &key.PublicKey, nil }, jwt.WithValidMethods([]string{"RS256"}))
	require.NoError(t, err)
	require.Len(t, claims.Payload.GenericObjects, 1)
	return claims.Payload.GenericObjects[0]
}

// Registered as "Ana Ruiz", certified by an INE of "ANA MARÍA RUIZ SOTO" that expires in about a
// year, on a five-year plan: both passes name her as the ID does, end when the ID does (the end
// of its expiry day in Mexico City), show the ID's date and say why.
func TestThePassesShowTheDocumentsNameAndEndWithTheID(t *testing.T) {
	t.Parallel()
	e := setup(t, patientWallet)
	e.runWorker(t)
	doc := identity.SampleDocument("Ana María Ruiz Soto", anaBirth)
	y, m, d := time.Now().AddDate(1, 0, 0).Date()
	doc.ExpiryDate = time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	id, _ := certifiedUser(t, e, "Ana Ruiz", doc, 5)
	validated := dbGet[time.Time](t, e.db, `SELECT fecha_validacion FROM users WHERE id = $1`, id)
	end := perfilseguro.DocumentValidThrough(doc.ExpiryDate)
	require.True(t, end.Before(validated.AddDate(5, 0, 0)), "the ID ends first")
	date := doc.ExpiryDate.Format("02/01/2006")

	pass := e.applePass(t, id)
	require.Equal(t, "Ana María Ruiz Soto", pass.Generic.PrimaryFields[0].Value)
	require.Equal(t, end.UTC().Format(time.RFC3339), pass.ExpirationDate, "min(plan end, ID expiry)")
	require.Equal(t, passFieldJSON{Key: "validUntil", Label: "Vigente hasta", Value: date}, pass.Generic.AuxiliaryFields[0])
	require.Contains(t, pass.Generic.BackFields, passFieldJSON{Key: "validity", Label: "Vigencia",
		Value: "Vigente hasta " + date + " (vence tu identificación)"})

	obj := e.googlePass(t, id)
	require.Equal(t, "Ana María Ruiz Soto", obj.Header.DefaultValue.Value)
	require.Equal(t, end.UTC().Format(time.RFC3339), obj.ValidTimeInterval.End.Date)
	bodies := map[string]string{}
	for _, m := range obj.TextModulesData {
		bodies[m.ID] = m.Body
	}
	require.Equal(t, date, bodies["valid_until"])
	require.Equal(t, "Vigente hasta "+date+" (vence tu identificación)", bodies["validity"])
}

// An ID that outlives the plan changes nothing on the passes: the plan's end, no ID note.
func TestThePassesEndWithThePlanWhenTheIDOutlivesIt(t *testing.T) {
	t.Parallel()
	e := setup(t, patientWallet)
	e.runWorker(t)
	doc := identity.SampleDocument("Ana María Ruiz Soto", anaBirth) // valid through 2035
	id, _ := certifiedUser(t, e, "Ana Ruiz", doc, 1)
	validated := dbGet[time.Time](t, e.db, `SELECT fecha_validacion FROM users WHERE id = $1`, id)

	pass := e.applePass(t, id)
	require.Equal(t, "Ana María Ruiz Soto", pass.Generic.PrimaryFields[0].Value)
	require.Equal(t, validated.AddDate(1, 0, 0).UTC().Format(time.RFC3339), pass.ExpirationDate)
	for _, f := range pass.Generic.BackFields {
		require.NotContains(t, f.Value, "identificación")
	}
	obj := e.googlePass(t, id)
	for _, m := range obj.TextModulesData {
		require.NotContains(t, m.Body, "identificación")
	}
}

// The public page of a profile whose ID ends the validity before the plan: the answer caps the
// expiry at the end of the ID's day and says so (vence_identificacion), and the page's card
// (#root, as React writes it) says "Vigente hasta {día} (vence su identificación)"; with an ID
// that outlives the plan, the plan's years as before.
func TestThePublicPageSaysTheIDEndsTheValidity(t *testing.T) {
	t.Parallel()
	web := fstest.MapFS{"index.html": {Data: []byte(`<!doctype html><html><head><title>Perfil Seguro</title></head><body><div id="root"></div></body></html>`)}}
	e := setup(t, func(d *api.Deps) { d.Web = web })
	doc := identity.SampleDocument("Ana María Ruiz Soto", anaBirth)
	doc.ExpiryDate = time.Date(time.Now().Year()+1, time.March, 15, 0, 0, 0, 0, time.UTC)
	_, pid := certifiedUser(t, e, "Ana Ruiz", doc, 5)

	status, v, body := e.verify(t, pid)
	require.Equal(t, http.StatusOK, status, body)
	require.Equal(t, "Ana María Ruiz Soto", v.Profile.Nombre)
	require.True(t, v.Profile.Verificado)
	require.False(t, v.Profile.Expirado)
	require.True(t, perfilseguro.DocumentValidThrough(doc.ExpiryDate).Equal(*v.Profile.FechaExpiracion),
		"fecha_expiracion is the end of the ID's expiry day: %v", v.Profile.FechaExpiracion)
	require.Contains(t, body, `"vence_identificacion":true`)

	res, page := e.do(t, http.MethodGet, "/verify/"+pid, "", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	root := servedRoot.FindStringSubmatch(page)
	require.NotNil(t, root, page)
	year := strconv.Itoa(doc.ExpiryDate.Year())
	require.Contains(t, root[1], ">Vigente hasta 15 de marzo de "+year+" (vence su identificación)</dd>")
	require.Contains(t, root[1], ">Ana María Ruiz Soto</h2>")

	// The plan ends first: no word about the ID.
	_, other := certifiedUser(t, e, "Ana Ruiz", identity.SampleDocument("Ana Ruiz", anaBirth.AddDate(1, 0, 0)), 1)
	status, v, body = e.verify(t, other)
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, body, `"vence_identificacion":false`)
	_, page = e.do(t, http.MethodGet, "/verify/"+other, "", "")
	require.NotContains(t, page, "vence su identificación")
	require.Contains(t, page, ">1 año</dd>")
}
