package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/credential"
)

// badInput is one malformed request derived from an operation's description.
type badInput struct {
	what   string
	path   string // with path parameters filled
	query  url.Values
	header http.Header
	body   []byte
	origin string // the Origin header sent instead of the server's own ("": the server's)
}

// badInputsFor derives, from one operation's description, the requests its schema says are
// wrong: each required parameter missing, malformed path parameters, a malformed body, a body
// whose every property has the wrong type, an empty body and an oversize one.
func badInputsFor(path string, op *openapi3.Operation) []badInput {
	valid := func() (string, url.Values, http.Header) {
		p := path
		q, h := url.Values{}, http.Header{}
		for _, ref := range op.Parameters {
			prm := ref.Value
			switch prm.In {
			case "path":
				p = strings.ReplaceAll(p, "{"+prm.Name+"}", "1")
			case "query":
				if prm.Required {
					q.Set(prm.Name, "x")
				}
			case "header":
				if prm.Required {
					h.Set(prm.Name, "x")
				}
			}
		}
		return p, q, h
	}
	var out []badInput
	p, q, h := valid()
	if strings.HasPrefix(path, "/api/widget/") { // Origin is read before anything else there
		out = append(out,
			badInput{what: "over-long Origin", path: p, query: q, header: h, origin: "https://" + strings.Repeat("a", 64<<10) + ".example"},
			badInput{what: "malformed Origin", path: p, query: q, header: h, origin: "https://socio.example/ruta?x=1"})
	}
	for _, ref := range op.Parameters {
		prm := ref.Value
		switch {
		case prm.In == "path":
			for _, bad := range []string{"abc", "-1", "0", "%2e%2e", strings.Repeat("9", 400)} {
				bp := path
				for _, other := range op.Parameters {
					v := "1"
					if other.Value.Name == prm.Name {
						v = bad
					}
					bp = strings.ReplaceAll(bp, "{"+other.Value.Name+"}", v)
				}
				out = append(out, badInput{what: "path " + prm.Name + "=" + bad[:min(len(bad), 8)], path: bp, query: q, header: h})
			}
		case prm.Required && prm.In == "query":
			mq := url.Values{}
			for k, v := range q {
				if k != prm.Name {
					mq[k] = v
				}
			}
			out = append(out, badInput{what: "missing query " + prm.Name, path: p, query: mq, header: h})
		case prm.Required && prm.In == "header":
			mh := h.Clone()
			mh.Del(prm.Name)
			out = append(out, badInput{what: "missing header " + prm.Name, path: p, query: q, header: mh})
		}
	}
	if op.RequestBody != nil && op.RequestBody.Value != nil {
		out = append(out,
			badInput{what: "malformed JSON", path: p, query: q, header: h, body: []byte(`{"a":`)},
			badInput{what: "a JSON array", path: p, query: q, header: h, body: []byte(`[1,2,3]`)},
			badInput{what: "oversize body", path: p, query: q, header: h, body: append([]byte(`{"x":"`), append(bytes.Repeat([]byte("a"), 2<<20), '"', '}')...)},
		)
		if mt := op.RequestBody.Value.Content.Get("application/json"); mt != nil && mt.Schema != nil && mt.Schema.Value != nil {
			wrong := map[string]any{}
			for name, prop := range mt.Schema.Value.Properties {
				switch {
				case prop.Value != nil && prop.Value.Type.Is("string"):
					wrong[name] = map[string]any{"no": "texto"}
				default:
					wrong[name] = "texto donde no va"
				}
			}
			if len(wrong) > 0 {
				b, _ := json.Marshal(wrong)
				out = append(out, badInput{what: "every property of the wrong type", path: p, query: q, header: h, body: b})
			}
			huge := map[string]any{}
			for name := range mt.Schema.Value.Properties {
				huge[name] = strings.Repeat("ñ", 5000)
			}
			if len(huge) > 0 {
				b, _ := json.Marshal(huge)
				out = append(out, badInput{what: "hostile long strings", path: p, query: q, header: h, body: b})
			}
		}
	}
	return out
}

// Every operation of the document, sent the bad inputs derived from its own description,
// anonymously and with each kind of session, answers a 4xx — never a 5xx; the contract check
// of setup fails the test if that 4xx is not documented for the operation.
func TestBadInputIsADocumented4xxOnEveryOperation(t *testing.T) {
	t.Parallel()
	issuer := &credential.Issuer{URL: testBaseURL, Keys: []credential.Key{newIssuerKey(t)}}
	e := setup(t, func(d *api.Deps) {
		d.Credentials = issuer
		d.Passes.BuildWait = 10 * time.Millisecond // pass builds would wait for a worker that is not here
	})
	e.addPartner(t, "pk_live_0000000000000000000000a8", "https://socio.example", true, "widget_auth")
	validated := time.Now().AddDate(0, -1, 0)
	uid, _ := seedUser(t, e.db, seeded{Level: 3, Validated: &validated})
	callers := map[string]struct {
		client *http.Client
		header http.Header
	}{
		"anónimo":       {anonymous(), nil},
		"persona":       {e.signedIn(t, uid), nil},
		"administrador": {e.adminClient(t), nil},
		"socio":         {anonymous(), http.Header{"X-Partner-Key": {"pk_live_0000000000000000000000a8"}}},
		"servidor":      {anonymous(), http.Header{"Authorization": {"Bearer " + e.secretKey(t, "pk_live_0000000000000000000000a8", true)}}},
	}
	doc, err := openapi3.NewLoader().LoadFromData(e.api.OpenAPISpec())
	require.NoError(t, err)
	paths := doc.Paths.InMatchingOrder()
	sort.Strings(paths)
	sent := 0
	for _, path := range paths {
		for method, op := range doc.Paths.Value(path).Operations() {
			if path == "/api/admin/logout" || path == "/api/logout" {
				continue // would end the sessions the other requests use
			}
			for _, bad := range badInputsFor(path, op) {
				for who, c := range callers {
					target := e.srv.URL + bad.path
					if len(bad.query) > 0 {
						target += "?" + bad.query.Encode()
					}
					var body io.Reader
					if bad.body != nil {
						body = bytes.NewReader(bad.body)
					}
					req, err := http.NewRequest(method, target, body)
					require.NoError(t, err)
					req.Header = bad.header.Clone()
					if req.Header == nil {
						req.Header = http.Header{}
					}
					for k, v := range c.header {
						req.Header[k] = v
					}
					req.Header.Set("Content-Type", "application/json")
					switch {
					case bad.origin != "":
						req.Header.Set("Origin", bad.origin)
					case who != "servidor": // a partner's server sends no Origin (a secret key with one is refused)
						req.Header.Set("Origin", e.srv.URL)
					}
					res, err := c.client.Do(req)
					require.NoError(t, err)
					io.Copy(io.Discard, res.Body)
					res.Body.Close()
					sent++
					require.Less(t, res.StatusCode, 500, "%s %s (%s, %s) answered %d", method, bad.path, bad.what, who, res.StatusCode)
					require.GreaterOrEqual(t, res.StatusCode, 300, "%s %s (%s, %s) accepted a bad input", method, bad.path, bad.what, who)
				}
			}
		}
	}
	t.Logf("%d malformed requests over %d paths: no 5xx", sent, len(paths))
	require.Greater(t, sent, 500)
}
