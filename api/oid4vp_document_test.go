package api_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/credential"
	"github.com/perfilseguro/perfilseguro/identity"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
	"github.com/perfilseguro/perfilseguro/worker"
)

// Issue 52 item 6: what the credential and a presentation say comes from the identity document.

// testDocumentKey seals the documents the API tests certify profiles with.
var testDocumentKey = secure.NewDocumentKey("api-document-key-0123456789abcdef0123")

// anaBirth is the birth date on Ana's ID.
var anaBirth = time.Date(1990, 3, 15, 0, 0, 0, 0, time.UTC)

// certifiedUser registers a person as typed, then certifies the profile with doc as an approved
// check whose document matched does (Store.Certify, under the document's name in proper case).
func certifiedUser(t *testing.T, e *env, typed string, doc perfilseguro.DocumentIdentity, vigencia int) (int64, string) {
	t.Helper()
	id, pid := seedUser(t, e.db, seeded{Name: typed, Level: 2, Vigencia: vigencia})
	ctx := context.Background()
	store := &postgres.Store{DB: e.db, Documents: testDocumentKey}
	var vid int64
	require.NoError(t, e.db.Get(&vid, `INSERT INTO verification_sessions (user_id, session_id, verification_status, environment,
		created_at, completed_at) VALUES ($1, $2, 'Approved', 'development', now() - interval '5 minutes', now()) RETURNING id`,
		id, "sess-"+pid))
	tx, err := e.db.BeginTxx(ctx, nil)
	require.NoError(t, err)
	defer tx.Rollback()
	require.NoError(t, store.StoreDocument(ctx, tx, vid, doc))
	a := identity.Assess(typed, &doc, nil, perfilseguro.MexicoDay(time.Now()))
	require.Equal(t, identity.VerdictMatch, a.Verdict, "the document is the typed person's")
	c, err := store.Certify(ctx, tx, vid, a.DocumentName, doc, nil)
	require.NoError(t, err)
	require.True(t, c.ApprovedNow)
	require.NoError(t, tx.Commit())
	return id, pid
}

// documentEnv is oid4vpEnv whose API and worker can open sealed documents.
func documentEnv(t *testing.T, c *clock) (*env, *credential.Issuer, *partnerHook) {
	t.Helper()
	return oid4vpEnvWith(t, c, func(d *api.Deps) { d.Documents = testDocumentKey },
		func(d *worker.Deps) { d.Documents = testDocumentKey })
}

// credentialFor gets a document-certified person a credential bound to a fresh wallet key.
func (e *env) credentialFor(t *testing.T, id int64) holder {
	t.Helper()
	key := newIssuerKey(t)
	pub := credential.PublicJWK(key)
	owner := e.signedIn(t, id)
	r := e.send(t, owner, "POST", "/api/credentials", map[string]any{"holderJwk": map[string]any{
		"kty": "EC", "crv": "P-256", "x": pub["x"], "y": pub["y"]}})
	var got api.CredentialResponse
	require.NoError(t, json.Unmarshal(r.Body, &got), string(r.Body))
	require.Eventually(t, func() bool {
		if got.Status == "ready" {
			return true
		}
		r = e.send(t, owner, "GET", "/api/credentials/"+strconvFormat(got.ID), nil)
		return json.Unmarshal(r.Body, &got) == nil && got.Status == "ready"
	}, 15*time.Second, 100*time.Millisecond, "the worker signs the credential")
	return holder{userID: id, key: key, credential: got.Credential}
}

// stdlibDisclosed checks an SD-JWT VC the way an independent verifier would, with go-jose and
// the SD-JWT rules by hand (RFC 9901 §7): the ES256 signature with the issuer's public key,
// then each disclosure's SHA-256 digest referenced from _sd (top level or nested in a disclosed
// object). It returns the signed payload as sent and each disclosure as [salt, name, value]
// with where its digest was found ("" top level, else the parent claim).
func stdlibDisclosed(t *testing.T, sdjwt string, issuer *credential.Issuer) (map[string]any, map[string][]any, map[string]string) {
	t.Helper()
	parts := strings.Split(strings.TrimSuffix(sdjwt, "~"), "~")
	sig, err := jose.ParseSigned(parts[0], []jose.SignatureAlgorithm{jose.ES256})
	require.NoError(t, err)
	pub := issuer.Keys[0].Private.Public()
	raw, err := sig.Verify(pub)
	require.NoError(t, err, "signed by the issuer")
	var payload map[string]any
	require.NoError(t, json.Unmarshal(raw, &payload))
	require.Equal(t, "sha-256", payload["_sd_alg"])

	top := map[string]bool{}
	for _, h := range payload["_sd"].([]any) {
		top[h.(string)] = true
	}
	byName, where := map[string][]any{}, map[string]string{}
	digests := map[string]string{}
	for _, d := range parts[1:] {
		plain, err := base64.RawURLEncoding.DecodeString(d)
		require.NoError(t, err)
		var arr []any
		require.NoError(t, json.Unmarshal(plain, &arr))
		require.Len(t, arr, 3, "object property disclosures")
		name := arr[1].(string)
		byName[name] = arr
		sum := sha256.Sum256([]byte(d))
		digests[name] = base64.RawURLEncoding.EncodeToString(sum[:])
	}
	for name, h := range digests {
		if top[h] {
			where[name] = ""
			continue
		}
		for parent, arr := range byName {
			if obj, ok := arr[2].(map[string]any); ok {
				for _, nested := range obj["_sd"].([]any) {
					if nested == h {
						where[name] = parent
					}
				}
			}
		}
		require.Contains(t, where, name, "disclosure %q is referenced by a digest", name)
	}
	return payload, byName, where
}

// Registered as "Ana Ruiz", certified by an INE of "ANA MARÍA RUIZ SOTO": her credential names
// her as the ID does and carries the ID's data, each claim a disclosure whose digest is in _sd,
// nothing of it in clear in the signed JWT; the type metadata documents each claim.
func TestTheCredentialCarriesTheDocumentsDataAsDisclosures(t *testing.T) {
	t.Parallel()
	e, issuer, _ := documentEnv(t, newClock())
	doc := identity.SampleDocument("Ana María Ruiz Soto", anaBirth)
	id, pid := certifiedUser(t, e, "Ana Ruiz", doc, 5)
	require.Equal(t, "Ana María Ruiz Soto", dbGet[string](t, e.db, `SELECT nombre FROM users WHERE id = $1`, id))
	h := e.credentialFor(t, id)

	payload, disclosures, where := stdlibDisclosed(t, h.credential, issuer)
	require.Equal(t, pid, payload["profile_id"])
	signed, err := json.Marshal(payload)
	require.NoError(t, err)
	for _, clear := range []string{doc.PersonalNumber, "1990-03-15", "Ruiz Soto", "Ana María", "given_name", `["MX"]`} {
		require.NotContains(t, string(signed), clear, "not in clear in the signed payload")
	}
	want := map[string]any{
		"name":                           "Ana María Ruiz Soto",
		"given_name":                     "Ana María",
		"family_name":                    "Ruiz Soto",
		"birthdate":                      "1990-03-15",
		"nationalities":                  []any{"MX"},
		"personal_administrative_number": doc.PersonalNumber,
		"18":                             true,
	}
	for name, value := range want {
		require.Contains(t, disclosures, name)
		require.Equal(t, value, disclosures[name][2], name)
	}
	require.Equal(t, "age_equal_or_over", where["18"], "the 18 is disclosed inside age_equal_or_over")
	require.Equal(t, "", where["age_equal_or_over"])
	require.Equal(t, "", where["personal_administrative_number"])

	// The type metadata at the vct URL documents each new claim in Spanish, always disclosable.
	res, body := get(t, http.DefaultClient, e.srv.URL+"/credentials/identidad-validada")
	require.Equal(t, http.StatusOK, res.StatusCode)
	var meta struct {
		Claims []struct {
			Path    []string            `json:"path"`
			SD      string              `json:"sd"`
			Display []map[string]string `json:"display"`
		} `json:"claims"`
	}
	require.NoError(t, json.Unmarshal(body, &meta))
	documented := map[string]string{}
	sd := map[string]string{}
	for _, c := range meta.Claims {
		documented[strings.Join(c.Path, ".")] = c.Display[0]["label"]
		sd[strings.Join(c.Path, ".")] = c.SD
	}
	for path, label := range map[string]string{"given_name": "Nombre(s)", "family_name": "Apellidos",
		"birthdate": "Fecha de nacimiento", "age_equal_or_over": "Mayoría de edad", "age_equal_or_over.18": "Mayor de 18 años",
		"nationalities": "Nacionalidad", "personal_administrative_number": "CURP"} {
		require.Equal(t, label, documented[path], path)
		require.Equal(t, "always", sd[path], path)
	}
}

// A profile validated before documents were read (name_source 'typed') gets its credential as
// before: none of the document's claims.
func TestATypedProfileGetsNoDocumentClaims(t *testing.T) {
	t.Parallel()
	e, issuer, _ := documentEnv(t, newClock())
	h := e.holderWith(t, "Lucía Herrera", time.Now().AddDate(0, -2, 0))
	_, disclosures, _ := stdlibDisclosed(t, h.credential, issuer)
	require.Equal(t, "Lucía Herrera", disclosures["name"][2])
	for _, name := range []string{"given_name", "family_name", "birthdate", "age_equal_or_over", "18", "nationalities",
		"personal_administrative_number"} {
		require.NotContains(t, disclosures, name)
	}
}

// OpenID4VP: a partner asks for the document's claims by name or by DCQL path; the wallet's
// answer counts only with every requested claim disclosed, and the partner gets what it asked
// for and nothing more: a presentation of the given name alone never reveals the CURP.
func TestOID4VPAsksForTheDocumentsClaims(t *testing.T) {
	t.Parallel()
	c := newClock()
	e, _, _ := documentEnv(t, c)
	doc := identity.SampleDocument("Ana María Ruiz Soto", anaBirth)
	id, _ := certifiedUser(t, e, "Ana Ruiz", doc, 5)
	h := e.credentialFor(t, id)

	// The given name only: the wallet shows the CURP too, the partner gets the given name alone.
	created := e.newPresentation(t, "given_name")
	req := e.readRequest(t, created)
	require.Equal(t, []any{map[string]any{"path": []any{"given_name"}}},
		req.Claims["dcql_query"].(map[string]any)["credentials"].([]any)[0].(map[string]any)["claims"])
	onlyName := present(t, h, h.key, req.ClientID, req.Nonce, c.Now(), "given_name")
	require.NotContains(t, onlyName, doc.PersonalNumber)
	for _, d := range strings.Split(onlyName, "~")[1:] {
		plain, _ := base64.RawURLEncoding.DecodeString(d)
		require.NotContains(t, string(plain), doc.PersonalNumber, "no disclosure of the given name's presentation holds the CURP")
	}
	r := e.respond(t, req, present(t, h, h.key, req.ClientID, req.Nonce, c.Now(), "given_name", "personal_administrative_number"))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	_, st := e.poll(t, vpPartnerKey, created.ID)
	require.Equal(t, "completed", st.Status)
	require.Equal(t, map[string]any{"given_name": "Ana María"}, st.Claims)
	stored := dbGet[string](t, e.db, `SELECT claims::text FROM presentation_requests WHERE id = $1`, created.ID)
	require.NotContains(t, stored, doc.PersonalNumber, "what was not asked for is not kept")

	// The CURP and the birth date by DCQL (legal age the PID way): not disclosed, not given.
	r = e.askPresentation(t, vpPartnerKey, map[string]any{"dcql_query": map[string]any{"credentials": []any{map[string]any{
		"id": "pid", "format": "dc+sd-jwt", "meta": map[string]any{"vct_values": []string{testBaseURL + "/credentials/identidad-validada"}},
		"claims": []any{map[string]any{"path": []string{"personal_administrative_number"}}, map[string]any{"path": []string{"birthdate"}},
			map[string]any{"path": []string{"age_equal_or_over", "18"}}, map[string]any{"path": []string{"family_name"}}},
	}}}})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	var asked api.PresentationCreated
	require.NoError(t, json.Unmarshal(r.Body, &asked))
	req = e.readRequest(t, asked)
	r = e.respond(t, req, present(t, h, h.key, req.ClientID, req.Nonce, c.Now(), "family_name", "age_equal_or_over"))
	requireOAuthError(t, r, http.StatusBadRequest, "invalid_presentation") // the CURP and the birth date were asked for, not disclosed
	_, st = e.poll(t, vpPartnerKey, asked.ID)
	require.Equal(t, "pending", st.Status)
	require.Contains(t, st.Error, "Falta un dato solicitado")
	require.Empty(t, st.Claims)

	r = e.respond(t, req, present(t, h, h.key, req.ClientID, req.Nonce, c.Now(),
		"family_name", "age_equal_or_over", "birthdate", "personal_administrative_number"))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	_, st = e.poll(t, vpPartnerKey, asked.ID)
	require.Equal(t, "completed", st.Status)
	require.Equal(t, map[string]any{"personal_administrative_number": doc.PersonalNumber, "birthdate": "1990-03-15",
		"age_equal_or_over": map[string]any{"18": true}, "family_name": "Ruiz Soto"}, st.Claims)

	// A claim the credential does not have is refused with the list of those it has.
	r = e.askPresentation(t, vpPartnerKey, map[string]any{"claims": []string{"curp"}})
	require.Equal(t, http.StatusBadRequest, r.Status)
	require.Contains(t, string(r.Body), "personal_administrative_number")
}
