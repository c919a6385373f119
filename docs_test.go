package perfilseguro_test

import (
	"crypto/sha512"
	"encoding/base64"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The partners' page publishes the drop-in's Subresource Integrity hash: it must be the hash of
// the file we serve, or partners who pin it would load nothing.
func TestTheDocumentedSRIHashIsTheDropInsOwn(t *testing.T) {
	t.Parallel()
	js, err := os.ReadFile("web/public/widget/v1.js")
	require.NoError(t, err)
	sum := sha512.Sum384(js)
	want := "sha384-" + base64.StdEncoding.EncodeToString(sum[:])
	doc, err := os.ReadFile("docs/partners.md")
	require.NoError(t, err)
	require.True(t, strings.Contains(string(doc), `integrity="`+want+`"`),
		"docs/partners.md must publish %s (the drop-in changed: update the page and tell partners)", want)
}
