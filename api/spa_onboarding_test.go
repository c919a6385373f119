package api

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"
)

// ONBOARDING_URL reaches the landing's buttons through the page the server sends, escaped; the
// built page is left as it is when there is no head to put it in.
func TestIndexCarriesTheOnboardingURL(t *testing.T) {
	t.Parallel()
	page := func(index, onboarding string) string {
		h := spaHandler(fstest.MapFS{"index.html": {Data: []byte(index)}}, onboarding)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
		require.Equal(t, http.StatusOK, rec.Code)
		b, _ := io.ReadAll(rec.Result().Body)
		return string(b)
	}
	built := `<!doctype html><html><head><title>Perfil Seguro</title></head><body></body></html>`
	require.Equal(t, `<!doctype html><html><head><title>Perfil Seguro</title>`+
		`<meta name="ps-onboarding-url" content="https://alta.example.mx/empezar?origen=landing&amp;x=&#34;1&#34;">`+
		`</head><body></body></html>`, page(built, `https://alta.example.mx/empezar?origen=landing&x="1"`))
	require.Contains(t, page(built, "/register"), `<meta name="ps-onboarding-url" content="/register"></head>`)
	require.Equal(t, built, page(built, ""))
	require.Equal(t, "<p>sin cabecera</p>", page("<p>sin cabecera</p>", "/register"))
}
