package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// Issue 53 item 1: a business records LFPIORPI operations with the people in them (each linked to
// a verification session they completed with it) and reads what the law requires, from the UMA
// and thresholds tables (0035: 2025 UMA 113.14, 2026 UMA 117.31; sale aviso 8,025 UMA; rent
// identification above 1,605 UMA a month, aviso from 3,210).

// amlPerson inserts a person (no session of their own); verified: certified by an identity document.
func amlPerson(t *testing.T, db *sqlx.DB, verified bool) int64 {
	t.Helper()
	ctx := context.Background()
	store := postgres.Store{DB: db}
	p := newPerson()
	phone := "+52" + p.Phone
	var id int64
	require.NoError(t, store.InTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		id, _, err = store.InsertUser(ctx, tx, postgres.NewUser{Nombre: p.Name, Email: &p.Email, Phone: &phone})
		return err
	}))
	if verified {
		_, err := db.Exec(`WITH v AS (INSERT INTO verification_sessions (user_id, session_id, verification_status, completed_at)
				VALUES ($1, $2, 'Approved', now()) RETURNING id)
			UPDATE users SET name_source = 'document', identity_verification_id = (SELECT id FROM v) WHERE id = $1`,
			id, "aml-"+secure.NewToken(6))
		require.NoError(t, err)
	}
	return id
}

// completedSession stores a session of the partner (api_keys.id) that uid completed, sharing
// their name and profile ID; status other than completed leaves it so, unshared.
func completedSession(t *testing.T, db *sqlx.DB, partnerID, uid int64, live bool, status string) string {
	t.Helper()
	id := "vs_" + secure.NewToken(12)
	var shared any
	if status == "completed" {
		shared = `{"name": "Ana Ruiz", "profileId": "PS-1234-5678-90"}`
	}
	_, err := db.Exec(`INSERT INTO partner_sessions (id, partner_id, livemode, reference, required_level, claims, secret_hash,
			status, user_id, shared, expires_at, ended_at)
		VALUES ($1, $2, $3, 'cliente', 3, '{name,profileId}', $4, $5, $6, $7::jsonb, now() + interval '1 day', now())`,
		id, partnerID, live, secure.NewToken(16), status, uid, shared)
	require.NoError(t, err)
	return id
}

// opEnv is an API with one partner (live and test secret keys) and another partner.
type opEnv struct {
	*env
	partnerID, otherID int64
	live, test, other  []string // Authorization headers
}

func operationsSetup(t *testing.T) *opEnv {
	t.Helper()
	e := setup(t)
	e.addPartner(t, "pk_live_0000000000000000000a0a01", "https://casalista.example", true, "widget_auth")
	e.addPartner(t, "pk_live_0000000000000000000a0a02", "https://otra.example", true, "widget_auth")
	o := &opEnv{env: e,
		partnerID: dbGet[int64](t, e.db, `SELECT id FROM api_keys WHERE key_id = 'pk_live_0000000000000000000a0a01'`),
		otherID:   dbGet[int64](t, e.db, `SELECT id FROM api_keys WHERE key_id = 'pk_live_0000000000000000000a0a02'`),
		live:      []string{"Authorization", "Bearer " + e.secretKey(t, "pk_live_0000000000000000000a0a01", true)},
		test:      []string{"Authorization", "Bearer " + e.secretKey(t, "pk_live_0000000000000000000a0a01", false)},
		other:     []string{"Authorization", "Bearer " + e.secretKey(t, "pk_live_0000000000000000000a0a02", true)},
	}
	return o
}

// operation is a valid request with one person; change edits it.
func operation(sessionID string, change func(map[string]any)) map[string]any {
	body := map[string]any{"kind": "compraventa", "amount": "3500000.00", "date": "2026-03-10",
		"propertyReference": "Casa en Coyoacán, lote 12", "businessRole": "intermediario",
		"people": []map[string]any{{"role": "comprador", "sessionId": sessionID}}}
	if change != nil {
		change(body)
	}
	return body
}

func (o *opEnv) record(t *testing.T, key []string, body map[string]any) reply {
	t.Helper()
	return o.send(t, anonymous(), "POST", "/api/partner/v1/operations", body, key...)
}

func requirementOf(t *testing.T, out map[string]any) map[string]any {
	t.Helper()
	req, ok := out["requirement"].(map[string]any)
	require.True(t, ok, "a requirement: %v", out)
	return req
}

func TestOperationsSayWhatTheLawRequiresFromTheTables(t *testing.T) {
	t.Parallel()
	o := operationsSetup(t)
	verified := completedSession(t, o.db, o.partnerID, amlPerson(t, o.db, true), true, "completed")
	typed := completedSession(t, o.db, o.partnerID, amlPerson(t, o.db, false), true, "completed")

	cases := []struct {
		name, kind, amount, date string
		identify, aviso          bool
		umaYear                  float64
		uma, idPesos, avisoPesos string
	}{
		// 2026: 8,025 × 117.31 = 941,412.75
		{"sale at 8,025 UMA", "compraventa", "941412.75", "2026-03-10", true, true, 2026, "117.31", "0.00", "941412.75"},
		{"sale a centavo below", "compraventa", "941412.74", "2026-03-10", true, false, 2026, "117.31", "0.00", "941412.75"},
		// 2025 (after the reform): 8,025 × 113.14 = 907,948.50
		{"brokerage at 8,025 UMA of 2025", "intermediacion", "907948.50", "2025-08-01", true, true, 2025, "113.14", "0.00", "907948.50"},
		{"brokerage below in 2025", "intermediacion", "900000", "2025-08-01", true, false, 2025, "113.14", "0.00", "907948.50"},
		// rent 2026: identification above 188,282.55 a month, aviso from 376,565.10
		{"monthly rent between the thresholds", "arrendamiento", "200000", "2026-03-10", true, false, 2026, "117.31", "188282.55", "376565.10"},
		{"monthly rent at the identification threshold", "arrendamiento", "188282.55", "2026-03-10", false, false, 2026, "117.31", "188282.55", "376565.10"},
		{"monthly rent at the aviso threshold", "arrendamiento", "376565.10", "2026-03-10", true, true, 2026, "117.31", "188282.55", "376565.10"},
	}
	for _, c := range cases {
		r := o.record(t, o.live, operation(verified, func(b map[string]any) {
			b["kind"], b["amount"], b["date"] = c.kind, c.amount, c.date
			b["people"] = []map[string]any{{"role": "comprador", "sessionId": verified}, {"role": "vendedor", "sessionId": typed}}
		}))
		require.Equal(t, http.StatusCreated, r.Status, "%s: %s", c.name, r.Body)
		out := r.JSON(t)
		req := requirementOf(t, out)
		require.Equal(t, c.identify, req["identify"], c.name)
		require.Equal(t, c.aviso, req["aviso"], c.name)
		require.Equal(t, c.umaYear, req["umaYear"], c.name)
		require.Equal(t, c.uma, req["umaDaily"], c.name)
		require.Equal(t, c.idPesos, req["identificationThresholdPesos"], c.name)
		require.Equal(t, c.avisoPesos, req["avisoThresholdPesos"], c.name)
		require.Equal(t, c.kind == "arrendamiento", out["monthly"], c.name)
		require.Equal(t, true, out["livemode"])
		require.Regexp(t, `^op_[0-9a-f]{24}$`, out["id"])
		year := c.date[:4]
		require.Equal(t, map[string]string{"2025": "2035", "2026": "2036"}[year]+c.date[4:], out["retentionUntil"], "kept 10 years")
		people := out["people"].([]any)
		require.Len(t, people, 2)
		first, second := people[0].(map[string]any), people[1].(map[string]any)
		require.Equal(t, verified, first["sessionId"])
		require.Equal(t, "comprador", first["role"])
		require.Equal(t, true, first["identityVerified"], "certified with the document")
		require.Equal(t, "PS-1234-5678-90", first["profileId"], "the profile ID as shared")
		require.Equal(t, false, second["identityVerified"], "a typed name is not document-certified")
	}

	// The list is newest first and pages; one operation reads back the same.
	r := o.send(t, anonymous(), "GET", "/api/partner/v1/operations?limit=3", nil, o.live...)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	page := r.JSON(t)
	data := page["data"].([]any)
	require.Len(t, data, 3)
	require.Equal(t, true, page["hasMore"])
	require.Equal(t, "376565.10", data[0].(map[string]any)["amount"], "the newest first")
	last := data[2].(map[string]any)["id"].(string)
	r = o.send(t, anonymous(), "GET", "/api/partner/v1/operations?limit=100&startingAfter="+last, nil, o.live...)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Len(t, r.JSON(t)["data"].([]any), len(cases)-3)
	r = o.send(t, anonymous(), "GET", "/api/partner/v1/operations/"+last, nil, o.live...)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "Casa en Coyoacán, lote 12", r.JSON(t)["propertyReference"])
	require.Equal(t, 2, countOf(t, o.db, `SELECT count(*) FROM aml_operation_people p JOIN aml_operations o ON o.id = p.operation_id
		WHERE o.id = $1 AND p.user_id IS NOT NULL`, last), "the person's account is copied from the session")

	// A date before the tables hold values: no requirement, and a note why.
	r = o.record(t, o.live, operation(verified, func(b map[string]any) { b["date"] = "2020-05-01" }))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Nil(t, r.JSON(t)["requirement"])
	require.Contains(t, r.JSON(t)["requirementNote"], "No hay valores de UMA")
}

func TestTestKeysAndLiveKeysSeeOnlyTheirOwnOperations(t *testing.T) {
	t.Parallel()
	o := operationsSetup(t)
	uid := amlPerson(t, o.db, true)
	liveSession := completedSession(t, o.db, o.partnerID, uid, true, "completed")
	testSession := completedSession(t, o.db, o.partnerID, uid, false, "completed")

	// A test key cannot link a live session, nor a live key a test one.
	r := o.record(t, o.test, operation(liveSession, nil))
	require.Equal(t, http.StatusUnprocessableEntity, r.Status, string(r.Body))
	r = o.record(t, o.live, operation(testSession, nil))
	require.Equal(t, http.StatusUnprocessableEntity, r.Status, string(r.Body))

	r = o.record(t, o.test, operation(testSession, nil))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	testOp := r.JSON(t)["id"].(string)
	require.Equal(t, false, r.JSON(t)["livemode"])
	r = o.record(t, o.live, operation(liveSession, nil))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	liveOp := r.JSON(t)["id"].(string)
	require.Equal(t, 1, countOf(t, o.db, `SELECT count(*) FROM aml_operations WHERE id = $1 AND test_mode`, testOp))
	require.Equal(t, 1, countOf(t, o.db, `SELECT count(*) FROM aml_operations WHERE id = $1 AND NOT test_mode`, liveOp))

	for _, c := range []struct {
		key         []string
		mine, other string
	}{{o.test, testOp, liveOp}, {o.live, liveOp, testOp}} {
		r = o.send(t, anonymous(), "GET", "/api/partner/v1/operations", nil, c.key...)
		require.Equal(t, http.StatusOK, r.Status, string(r.Body))
		data := r.JSON(t)["data"].([]any)
		require.Len(t, data, 1)
		require.Equal(t, c.mine, data[0].(map[string]any)["id"])
		r = o.send(t, anonymous(), "GET", "/api/partner/v1/operations/"+c.other, nil, c.key...)
		require.Equal(t, http.StatusNotFound, r.Status, string(r.Body))
	}
	// Another partner sees none of them.
	r = o.send(t, anonymous(), "GET", "/api/partner/v1/operations/"+liveOp, nil, o.other...)
	require.Equal(t, http.StatusNotFound, r.Status, string(r.Body))
	r = o.send(t, anonymous(), "GET", "/api/partner/v1/operations", nil, o.other...)
	require.Empty(t, r.JSON(t)["data"])
	// Without a key: 401.
	r = o.send(t, anonymous(), "GET", "/api/partner/v1/operations", nil)
	require.Equal(t, http.StatusUnauthorized, r.Status, string(r.Body))
}

func TestAnOperationNeedsSessionsThePersonCompletedWithTheBusiness(t *testing.T) {
	t.Parallel()
	o := operationsSetup(t)
	uid := amlPerson(t, o.db, true)
	mine := completedSession(t, o.db, o.partnerID, uid, true, "completed")
	theirs := completedSession(t, o.db, o.otherID, uid, true, "completed")
	open := completedSession(t, o.db, o.partnerID, uid, true, "in_progress")
	declined := completedSession(t, o.db, o.partnerID, uid, true, "declined")
	for _, s := range []string{theirs, open, declined, "vs_" + strings.Repeat("0", 24)} {
		r := o.record(t, o.live, operation(mine, func(b map[string]any) {
			b["people"] = []map[string]any{{"role": "comprador", "sessionId": mine}, {"role": "vendedor", "sessionId": s}}
		}))
		require.Equal(t, http.StatusUnprocessableEntity, r.Status, string(r.Body))
		require.Equal(t, "La persona debe haber completado una verificación con tu plataforma.", r.JSON(t)["message"])
	}
	require.Zero(t, countOf(t, o.db, `SELECT count(*) FROM aml_operations`), "nothing recorded: the operation and its people are one write")
	require.Zero(t, countOf(t, o.db, `SELECT count(*) FROM aml_operation_people`))
	// The other partner can use its own session.
	r := o.record(t, o.other, operation(theirs, nil))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
}

func TestBadOperationsAreRefusedWithSpanishFieldMessages(t *testing.T) {
	t.Parallel()
	o := operationsSetup(t)
	s := completedSession(t, o.db, o.partnerID, amlPerson(t, o.db, false), true, "completed")
	tomorrow := time.Now().In(mustMexicoCity(t)).AddDate(0, 0, 2).Format(time.DateOnly)
	cases := []struct {
		change       func(map[string]any)
		field, words string
	}{
		{func(b map[string]any) { b["kind"] = "hipoteca" }, "kind", "Tipo de operación no válido"},
		{func(b map[string]any) { b["amount"] = "0" }, "amount", "mayor que cero"},
		{func(b map[string]any) { b["amount"] = "-10.00" }, "amount", "mayor que cero"},
		{func(b map[string]any) { b["amount"] = "3,500,000" }, "amount", "cantidad en pesos"},
		{func(b map[string]any) { b["amount"] = "mucho" }, "amount", "cantidad en pesos"},
		{func(b map[string]any) { b["date"] = tomorrow }, "date", "no puede ser futura"},
		{func(b map[string]any) { b["date"] = "10/03/2026" }, "date", "AAAA-MM-DD"},
		{func(b map[string]any) { b["propertyReference"] = strings.Repeat("x", 201) }, "propertyReference", "de 1 a 200 caracteres"},
		{func(b map[string]any) { b["propertyReference"] = "   " }, "propertyReference", "de 1 a 200 caracteres"},
		{func(b map[string]any) { b["businessRole"] = "notario" }, "businessRole", "Papel no válido"},
		{func(b map[string]any) { b["people"] = []map[string]any{} }, "people", "al menos una persona"},
		{func(b map[string]any) {
			b["people"] = []map[string]any{{"role": "comprador", "sessionId": s}, {"role": "vendedor", "sessionId": s}}
		}, "people[1].sessionId", "ya está en la operación"},
		{func(b map[string]any) { b["people"] = []map[string]any{{"role": "jefe", "sessionId": s}} }, "people[0].role", "Papel no válido"},
		{func(b map[string]any) { b["people"] = []map[string]any{{"role": "otro", "sessionId": "abc"}} }, "people[0].sessionId", "no es válido"},
	}
	for _, c := range cases {
		r := o.record(t, o.live, operation(s, c.change))
		require.Equal(t, http.StatusBadRequest, r.Status, "%s: %s", c.field, r.Body)
		errs, _ := r.JSON(t)["errors"].(map[string]any)
		require.Contains(t, errs[c.field], c.words, "%s: %s", c.field, r.Body)
	}
	require.Zero(t, countOf(t, o.db, `SELECT count(*) FROM aml_operations`))
	r := o.send(t, anonymous(), "GET", "/api/partner/v1/operations/op_nope", nil, o.live...)
	require.Equal(t, http.StatusBadRequest, r.Status, string(r.Body))
	r = o.send(t, anonymous(), "GET", "/api/partner/v1/operations?limit=0", nil, o.live...)
	require.Equal(t, http.StatusBadRequest, r.Status, string(r.Body))
}

func mustMexicoCity(t *testing.T) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("America/Mexico_City")
	require.NoError(t, err)
	return loc
}
