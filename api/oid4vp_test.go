package api_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/api"
)

// The whole flow with a Go wallet: the partner asks for the name, the wallet reads and checks
// the signed request, presents its credential disclosing only the name with a key binding JWT,
// encrypted to the request's key; the partner's poll and its webhook carry exactly {name}, and
// nothing more about the person is stored. The same answer again is refused.
func TestOID4VPPresentationGivesThePartnerOnlyTheRequestedClaims(t *testing.T) {
	t.Parallel()
	c := newClock()
	e, _, hook := oid4vpEnv(t, c)
	h := e.holderWith(t, "Lucía Herrera", time.Now().AddDate(0, -2, 0))

	created := e.newPresentation(t, "name")
	require.True(t, strings.HasPrefix(created.QRURL, "data:image/png;base64,"))
	require.WithinDuration(t, c.Now().Add(5*time.Minute), created.ExpiresAt, 2*time.Second)
	status, st := e.poll(t, vpPartnerKey, created.ID)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "pending", st.Status)
	require.Empty(t, st.Claims)

	req := e.readRequest(t, created)
	require.Equal(t, []any{map[string]any{"path": []any{"name"}}},
		req.Claims["dcql_query"].(map[string]any)["credentials"].([]any)[0].(map[string]any)["claims"])
	presentation := present(t, h, h.key, req.ClientID, req.Nonce, c.Now(), "name")
	r := e.respond(t, req, presentation)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.JSONEq(t, `{}`, string(r.Body))
	require.Contains(t, r.Header.Get("Content-Type"), "application/json")

	// The publishable key learns that it completed, not what was shared.
	status, st = e.pollWith(t, "X-Partner-Key", vpPartnerKey, created.ID)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "completed", st.Status)
	require.Empty(t, st.Claims, "a publishable key never reveals a person's data")
	require.Contains(t, st.Note, "llave secreta")

	status, st = e.poll(t, vpPartnerKey, created.ID)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "completed", st.Status)
	require.Equal(t, map[string]any{"name": "Lucía Herrera"}, st.Claims)
	require.Empty(t, st.Note)
	require.NotNil(t, st.CompletedAt)
	require.Empty(t, st.Error)

	// Stored: the requested claim and nothing else; the response key is gone.
	var row struct {
		Claims string `db:"claims"`
		Key    string `db:"response_key"`
	}
	require.NoError(t, e.db.Get(&row, `SELECT claims::text, response_key FROM presentation_requests WHERE id = $1`, created.ID))
	require.JSONEq(t, `{"name":"Lucía Herrera"}`, row.Claims)
	require.Empty(t, row.Key)

	// The partner's webhook: queued as an outbox row with only that claim, delivered signed.
	var delivery struct {
		Payload string `db:"payload"`
		NoUser  bool   `db:"no_user"`
	}
	require.NoError(t, e.db.Get(&delivery, `SELECT payload::text, user_id IS NULL AS no_user FROM partner_deliveries
		WHERE event = 'presentation.completed'`))
	require.True(t, delivery.NoUser, "the notification is not linked to the person's account")
	var payload map[string]any
	require.NoError(t, json.Unmarshal([]byte(delivery.Payload), &payload))
	require.Equal(t, "presentation.completed", payload["event"])
	require.Equal(t, created.ID, payload["id"])
	require.Equal(t, map[string]any{"name": "Lucía Herrera"}, payload["claims"])
	require.NotEmpty(t, payload["completedAt"])
	require.Eventually(t, func() bool { return len(hook.calls()) == 1 }, 15*time.Second, 50*time.Millisecond, "the job delivers it")
	call := hook.calls()[0]
	require.Equal(t, "presentation.completed", call.event)
	require.NoError(t, perfilseguro.VerifyPartnerWebhook("whsec_presenta", call.signature, call.body, time.Now(), 5*time.Minute))
	var sent map[string]any
	require.NoError(t, json.Unmarshal(call.body, &sent))
	require.Equal(t, map[string]any{"name": "Lucía Herrera"}, sent["claims"])

	// Replay: the same response, or a fresh one, to an answered request is refused; nothing changes.
	requireOAuthError(t, e.respond(t, req, presentation), http.StatusBadRequest, "invalid_request")
	requireOAuthError(t, e.respond(t, req, present(t, h, h.key, req.ClientID, req.Nonce, c.Now(), "name")),
		http.StatusBadRequest, "invalid_request")
	_, st = e.poll(t, vpPartnerKey, created.ID)
	require.Equal(t, "completed", st.Status)
	res, _ := get(t, http.DefaultClient, e.srv.URL+"/api/oid4vp/requests/"+created.ID)
	require.Equal(t, http.StatusNotFound, res.StatusCode, "an answered request is no longer served")

	// Another partner cannot read it; an unknown or malformed id is not found either.
	status, _ = e.poll(t, otherPartnerKey, created.ID)
	require.Equal(t, http.StatusNotFound, status)
	status, _ = e.poll(t, vpPartnerKey, "8d6e3a52-0c1b-4f1e-9a57-5b1f2c3d4e5f")
	require.Equal(t, http.StatusNotFound, status)
	status, _ = e.poll(t, vpPartnerKey, "no-es-un-id")
	require.Equal(t, http.StatusNotFound, status)
	r = e.send(t, http.DefaultClient, "GET", "/api/widget/presentations/"+created.ID, nil)
	require.Equal(t, http.StatusUnauthorized, r.Status, "no partner key")
}

// Each refusal answers 400 (or 404) in the OAuth shape, never 500, with a reason the partner
// reads, which says nothing about the person. A forged or replayed presentation closes the
// request as failed; one that is only incomplete leaves it pending, and the wallet's next, right
// answer counts.
func TestOID4VPRefusesPresentationsThatMustNotCount(t *testing.T) {
	t.Parallel()
	c := newClock()
	e, _, _ := oid4vpEnv(t, c)
	h := e.holderWith(t, "Lucía Herrera", time.Now().AddDate(0, -2, 0))

	refused := func(name string, build func(req walletRequest) string, reason string) {
		t.Helper()
		created := e.newPresentation(t, "name")
		req := e.readRequest(t, created)
		requireOAuthError(t, e.respond(t, req, build(req)), http.StatusBadRequest, "invalid_presentation")
		_, st := e.poll(t, vpPartnerKey, created.ID)
		require.Equal(t, "failed", st.Status, name)
		require.Contains(t, st.Error, reason, name)
		require.NotContains(t, st.Error, "Lucía", name)
		require.Empty(t, st.Claims, name)
	}
	refused("another nonce", func(req walletRequest) string {
		return present(t, h, h.key, req.ClientID, "otro-nonce-de-otra-solicitud", c.Now(), "name")
	}, "prueba de posesión")
	refused("another audience", func(req walletRequest) string {
		return present(t, h, h.key, "x509_san_dns:otro-verificador.example", req.Nonce, c.Now(), "name")
	}, "prueba de posesión")
	refused("stale key binding", func(req walletRequest) string {
		return present(t, h, h.key, req.ClientID, req.Nonce, c.Now().Add(-10*time.Minute), "name")
	}, "prueba de posesión")
	refused("another wallet's key", func(req walletRequest) string {
		return present(t, h, newIssuerKey(t), req.ClientID, req.Nonce, c.Now(), "name")
	}, "prueba de posesión")
	refused("no key binding JWT", func(req walletRequest) string {
		shown := present(t, h, h.key, req.ClientID, req.Nonce, c.Now(), "name")
		return shown[:strings.LastIndex(shown, "~")+1]
	}, "prueba de posesión")
	refused("tampered disclosure", func(req walletRequest) string {
		parts := strings.Split(present(t, h, h.key, req.ClientID, req.Nonce, c.Now(), "name"), "~")
		forged := `["sal-falsa","name","Otra Persona"]`
		parts[1] = base64.RawURLEncoding.EncodeToString([]byte(forged))
		return strings.Join(parts, "~")
	}, "no corresponden")
	withheld := e.newPresentation(t, "name")
	wreq := e.readRequest(t, withheld)
	requireOAuthError(t, e.respond(t, wreq, present(t, h, h.key, wreq.ClientID, wreq.Nonce, c.Now())), http.StatusBadRequest, "invalid_presentation")
	_, st := e.poll(t, vpPartnerKey, withheld.ID)
	require.Equal(t, "pending", st.Status, "the name withheld: not a forgery, the wallet may try again")
	require.Contains(t, st.Error, "Falta un dato solicitado")
	require.Equal(t, http.StatusOK, e.respond(t, wreq, present(t, h, h.key, wreq.ClientID, wreq.Nonce, c.Now(), "name")).Status)
	_, st = e.poll(t, vpPartnerKey, withheld.ID)
	require.Equal(t, "completed", st.Status, "the second try, with the name, counts")

	// A presentation captured for one request, replayed to another: its nonce gives it away.
	first := e.newPresentation(t, "name")
	req1 := e.readRequest(t, first)
	captured := present(t, h, h.key, req1.ClientID, req1.Nonce, c.Now(), "name")
	second := e.newPresentation(t, "name")
	req2 := e.readRequest(t, second)
	requireOAuthError(t, e.respond(t, req2, captured), http.StatusBadRequest, "invalid_presentation")
	require.Equal(t, http.StatusOK, e.respond(t, req1, captured).Status, "where it belongs it counts")

	// What cannot be an answer to the request changes nothing: another state, a JWE to another
	// key, no form at all. The request then still takes the right answer.
	created := e.newPresentation(t, "name")
	req := e.readRequest(t, created)
	good := present(t, h, h.key, req.ClientID, req.Nonce, c.Now(), "name")
	path := strings.TrimPrefix(req.ResponseURI, e.srv.URL)
	wrongState := encrypt(t, req, map[string]any{"vp_token": map[string]any{req.QueryID: []string{good}}, "state": "otro"})
	requireOAuthError(t, e.form(t, path, url.Values{"response": {wrongState}}), http.StatusBadRequest, "invalid_request")
	elsewhere := req
	elsewhere.EncKey = req2.EncKey
	requireOAuthError(t, e.form(t, path, url.Values{"response": {encrypt(t, elsewhere, map[string]any{"state": req.State})}}),
		http.StatusBadRequest, "invalid_request")
	requireOAuthError(t, e.form(t, path, url.Values{"vp_token": {"{}"}}), http.StatusBadRequest, "invalid_request")
	requireOAuthError(t, e.send(t, http.DefaultClient, "POST", path, map[string]any{"vp_token": "x"}), http.StatusBadRequest, "invalid_request")
	// The request asked for direct_post.jwt: the same presentation in clear (plain direct_post) is a
	// downgrade, refused without touching the request.
	token, _ := json.Marshal(map[string]any{req.QueryID: []string{good}})
	plain := e.form(t, path, url.Values{"vp_token": {string(token)}, "state": {req.State}})
	requireOAuthError(t, plain, http.StatusBadRequest, "invalid_request")
	require.Contains(t, string(plain.Body), "direct_post.jwt")
	_, st = e.poll(t, vpPartnerKey, created.ID)
	require.Equal(t, "pending", st.Status)
	// Encrypted, from a wallet in a browser tab with its own Origin (no session cookie involved).
	r := e.form(t, path, url.Values{"response": {encrypt(t, req, map[string]any{"vp_token": map[string]any{req.QueryID: []string{good}},
		"state": req.State})}}, "Origin", "https://billetera.example")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	_, st = e.poll(t, vpPartnerKey, created.ID)
	require.Equal(t, map[string]any{"name": "Lucía Herrera"}, st.Claims)

	// The person declines in the wallet: the error response is taken (200), the request fails.
	declined := e.newPresentation(t, "name")
	dreq := e.readRequest(t, declined)
	r = e.form(t, strings.TrimPrefix(dreq.ResponseURI, e.srv.URL), url.Values{"error": {"access_denied"}, "state": {dreq.State}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	_, st = e.poll(t, vpPartnerKey, declined.ID)
	require.Equal(t, "failed", st.Status)
	require.Contains(t, st.Error, "access_denied")

	// Unknown or malformed request ids: 404 at both wallet endpoints.
	for _, id := range []string{"8d6e3a52-0c1b-4f1e-9a57-5b1f2c3d4e5f", "no-es-un-id"} {
		requireOAuthError(t, e.form(t, "/api/oid4vp/responses/"+id, url.Values{"response": {"x"}}), http.StatusNotFound, "invalid_request")
		res, _ := get(t, http.DefaultClient, e.srv.URL+"/api/oid4vp/requests/"+id)
		require.Equal(t, http.StatusNotFound, res.StatusCode, id)
	}
}

// Revocation (the administrator's revoke path), an expired credential and an expired request.
func TestOID4VPRefusesRevokedAndExpiredCredentialsAndLateAnswers(t *testing.T) {
	t.Parallel()
	c := newClock()
	e, _, _ := oid4vpEnv(t, c)
	revoked := e.holderWith(t, "Revocada Pérez", time.Now().AddDate(0, -2, 0))
	expiring := e.holderWith(t, "Vence Pronto", time.Now().AddDate(-1, 0, 0).Add(3*time.Minute)) // exp in 3 minutes
	fine := e.holderWith(t, "Lucía Herrera", time.Now().AddDate(0, -2, 0))

	r := e.send(t, e.adminClient(t), "POST", "/api/admin/users/"+strconvFormat(revoked.userID)+"/revoke",
		map[string]string{"motivo": "Documento robado"})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	created := e.newPresentation(t, "name")
	req := e.readRequest(t, created)
	requireOAuthError(t, e.respond(t, req, present(t, revoked, revoked.key, req.ClientID, req.Nonce, c.Now(), "name")),
		http.StatusBadRequest, "invalid_presentation")
	_, st := e.poll(t, vpPartnerKey, created.ID)
	require.Equal(t, "pending", st.Status, "not a forgery: the request waits for another credential")
	require.Contains(t, st.Error, "revocada")
	c.Advance(5*time.Minute + time.Second)
	_, st = e.poll(t, vpPartnerKey, created.ID)
	require.Equal(t, "expired", st.Status)
	require.Contains(t, st.Error, "revocada", "expired unanswered, the partner still reads why the try was refused")

	// A request made now, answered after 5 minutes: too late, whatever the presentation.
	late := e.newPresentation(t, "name")
	lateReq := e.readRequest(t, late)
	c.Advance(5*time.Minute + time.Second)
	_, st = e.poll(t, vpPartnerKey, late.ID)
	require.Equal(t, "expired", st.Status)
	requireOAuthError(t, e.respond(t, lateReq, present(t, fine, fine.key, lateReq.ClientID, lateReq.Nonce, c.Now(), "name")),
		http.StatusBadRequest, "invalid_request")
	res, _ := get(t, http.DefaultClient, e.srv.URL+"/api/oid4vp/requests/"+late.ID)
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	stored := dbGet[string](t, e.db, `SELECT status FROM presentation_requests WHERE id = $1`, late.ID)
	require.Equal(t, "expired", stored)

	// Ten minutes on, the other credential's exp (3 minutes after it was issued) has passed.
	created = e.newPresentation(t, "name")
	req = e.readRequest(t, created)
	requireOAuthError(t, e.respond(t, req, present(t, expiring, expiring.key, req.ClientID, req.Nonce, c.Now(), "name")),
		http.StatusBadRequest, "invalid_presentation")
	_, st = e.poll(t, vpPartnerKey, created.ID)
	require.Contains(t, st.Error, "vencida")
}

// What a partner may ask for: claims the credential has, or a DCQL query for it; only partners.
func TestOID4VPPresentationRequestsAreChecked(t *testing.T) {
	t.Parallel()
	e, issuer, _ := oid4vpEnv(t, newClock())
	for _, body := range []any{
		map[string]any{},
		map[string]any{"claims": []string{"nombre"}},
		map[string]any{"claims": []string{"name", "name"}},
		map[string]any{"claims": []string{"name"}, "dcql_query": map[string]any{"credentials": []any{}}},
		map[string]any{"dcql_query": map[string]any{"credentials": []any{map[string]any{"id": "x", "format": "mso_mdoc",
			"meta": map[string]any{"vct_values": []string{issuer.VCT()}}}}}},
		map[string]any{"dcql_query": map[string]any{"credentials": []any{map[string]any{"id": "x", "format": "dc+sd-jwt",
			"meta": map[string]any{"vct_values": []string{issuer.VCT()}}, "claims": []any{map[string]any{"path": []string{"scores", "liveness"}}}}}}},
		map[string]any{"claims": []string{"name"}, "otro": 1},
	} {
		r := e.askPresentation(t, vpPartnerKey, body)
		require.Equal(t, http.StatusBadRequest, r.Status, "%v: %s", body, r.Body)
		require.NotEmpty(t, r.JSON(t)["message"])
	}
	r := e.askPresentation(t, vpPartnerKey, map[string]any{"claims": []string{"nombre"}})
	require.Contains(t, r.JSON(t)["message"], "name, validated_at")

	// A DCQL query is taken as the request's query (its id kept); the wallet sees it.
	r = e.askPresentation(t, vpPartnerKey, map[string]any{"dcql_query": map[string]any{"credentials": []any{map[string]any{
		"id": "perfil", "format": "dc+sd-jwt", "meta": map[string]any{"vct_values": []string{issuer.VCT()}},
		"claims": []any{map[string]any{"path": []string{"name"}}, map[string]any{"path": []string{"validated_at"}}}}}}})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	var created api.PresentationCreated
	require.NoError(t, json.Unmarshal(r.Body, &created))
	req := e.readRequest(t, created)
	require.Equal(t, "perfil", req.QueryID)

	// request_uri_method=post: the wallet's wallet_nonce comes back in the signed request.
	r2 := e.form(t, "/api/oid4vp/requests/"+created.ID, url.Values{"wallet_nonce": {"qPmxiNFCR3QTm19POc8u"},
		"wallet_metadata": {`{"vp_formats_supported":{}}`}}, "Accept", "application/oauth-authz-req+jwt")
	require.Equal(t, http.StatusOK, r2.Status, string(r2.Body))
	payload, err := base64.RawURLEncoding.DecodeString(strings.Split(string(r2.Body), ".")[1])
	require.NoError(t, err)
	require.Contains(t, string(payload), `"wallet_nonce":"qPmxiNFCR3QTm19POc8u"`)

	// Only partners: no key, an unknown key, our own app.
	require.Equal(t, http.StatusUnauthorized, e.send(t, http.DefaultClient, "POST", "/api/widget/presentations",
		map[string]any{"claims": []string{"name"}}).Status)
	require.Equal(t, http.StatusUnauthorized, e.askPresentation(t, "pk_desconocido", map[string]any{"claims": []string{"name"}}).Status)
	require.Equal(t, http.StatusForbidden, e.send(t, http.DefaultClient, "POST", "/api/widget/presentations",
		map[string]any{"claims": []string{"name"}}, "Origin", testBaseURL).Status)
	// A partner's page calls it from its own origin with its publishable key, with CORS; its
	// origin alone acts for nobody (issue 54, item 6).
	res, out := e.cross(t, "POST", "/api/widget/presentations", "https://casalista.example", nil, map[string]any{"claims": []string{"name"}})
	require.Equal(t, http.StatusUnauthorized, res.StatusCode, out)
	require.Contains(t, out["message"], "X-Partner-Key")
	res, out = e.cross(t, "POST", "/api/widget/presentations", "https://casalista.example",
		map[string]string{"X-Partner-Key": vpPartnerKey}, map[string]any{"claims": []string{"name"}})
	require.Equal(t, http.StatusCreated, res.StatusCode, out)
	require.Equal(t, "https://casalista.example", res.Header.Get("Access-Control-Allow-Origin"))
}
