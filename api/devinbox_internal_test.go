package api

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLinkifyEscapesTextAndLinksURLs(t *testing.T) {
	t.Parallel()
	got := string(linkify(`Hola <b>Ana</b>: abre http://localhost:8080/api/verify-email?token=ab&x=1 y listo`))
	require.Equal(t, `Hola &lt;b&gt;Ana&lt;/b&gt;: abre <a href="http://localhost:8080/api/verify-email?token=ab&amp;x=1">`+
		`http://localhost:8080/api/verify-email?token=ab&amp;x=1</a> y listo`, got)
	require.Equal(t, `javascript:alert(1) &lt;script&gt;`, string(linkify(`javascript:alert(1) <script>`)))
}
