package api_test

import (
	"compress/gzip"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"regexp"
	"testing"
	"testing/fstest"
	"time"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/stretchr/testify/require"
)

// embeddedRecord finds the public record data block in a page, or "".
var embeddedRecord = regexp.MustCompile(`<script type="application/json" id="ps-public-record">(.*?)</script>`)

// servedRoot is what a page's #root holds (the test page's body ends after it).
var servedRoot = regexp.MustCompile(`<div id="root">(.*)</div></body>`)

// The page of /verify/{id} carries what GET /api/verify/{id} answers (masked as it is, nothing
// more) so the card paints without a second request; an unknown or malformed ID, and any other
// page, carry none (issue 54 item 19).
func TestTheVerifyPageCarriesThePublicRecordAndNothingMore(t *testing.T) {
	t.Parallel()
	web := fstest.MapFS{"index.html": {Data: []byte(`<!doctype html><html><head><title>Perfil Seguro</title></head><body><div id="root"></div></body></html>`)}}
	e := setup(t, func(d *api.Deps) { d.Web = web })
	validated := time.Now().AddDate(0, -1, 0)
	_, pid := seedUser(t, e.db, seeded{Level: 3, Validated: &validated, Vigencia: 1,
		Email: "maria.pagina@gmail.com", Phone: "+525512340001"})

	res, page := e.do(t, http.MethodGet, "/verify/"+pid, "", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, "no-store", res.Header.Get("Cache-Control"), "a person's record is stored nowhere")
	require.Equal(t, "noindex, nofollow", res.Header.Get("X-Robots-Tag"))
	m := embeddedRecord.FindStringSubmatch(page)
	require.NotNil(t, m, page)
	require.NotContains(t, page, "maria.pagina@gmail.com")
	require.NotContains(t, page, "+525512340001")

	status, _, apiBody := e.verify(t, pid)
	require.Equal(t, http.StatusOK, status)
	var embedded, answered map[string]any
	require.NoError(t, json.Unmarshal([]byte(m[1]), &embedded))
	require.NoError(t, json.Unmarshal([]byte(apiBody), &answered))
	delete(embedded, "timestamp")
	delete(answered, "timestamp")
	require.Equal(t, answered, embedded, "the page carries exactly the public answer")
	require.Equal(t, "m•••@gmail.com", embedded["profile"].(map[string]any)["email"])

	// #root already holds the card as React shows it (masked name, level, badge, validity), so a
	// phone paints it before any JavaScript; escaped, and never the raw contact.
	root := servedRoot.FindStringSubmatch(page)
	require.NotNil(t, root, page)
	profile := embedded["profile"].(map[string]any)
	require.Contains(t, root[1], `<h2 class="card-title text-2xl">`+html.EscapeString(profile["nombre"].(string))+`</h2>`)
	require.Contains(t, root[1], ">Nivel 3 de 3</dd>")
	require.Contains(t, root[1], `data-testid="public-badge">Verificado</span>`)
	require.Contains(t, root[1], ">1 año</dd>")
	require.Contains(t, root[1], ">m•••@gmail.com</dd>")
	require.NotContains(t, root[1], "inert", "React replaces the card; it does not hydrate it")

	// Compressed for a browser, as every other page is (uncompressed it was the slow part on a phone).
	req, err := http.NewRequest(http.MethodGet, e.srv.URL+"/verify/"+pid, nil)
	require.NoError(t, err)
	req.Header.Set("Accept-Encoding", "gzip")
	gzRes, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	require.NoError(t, err)
	defer gzRes.Body.Close()
	require.Equal(t, "gzip", gzRes.Header.Get("Content-Encoding"))
	zr, err := gzip.NewReader(gzRes.Body)
	require.NoError(t, err)
	unzipped, err := io.ReadAll(zr)
	require.NoError(t, err)
	require.Regexp(t, embeddedRecord, string(unzipped))

	for _, path := range []string{"/verify/PS-0000-0000-00", "/verify/PS-123", "/verify", "/", "/conectar"} {
		res, page := e.do(t, http.MethodGet, path, "", "")
		require.Equal(t, http.StatusOK, res.StatusCode, path)
		require.NotContains(t, page, "ps-public-record", path)
		require.Contains(t, page, `<div id="root"></div>`, path)
		require.Equal(t, "no-cache", res.Header.Get("Cache-Control"), path)
	}
}
