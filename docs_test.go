package perfilseguro_test

import (
	"crypto/sha512"
	"encoding/base64"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

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

// markdownLink is a link target in Markdown text: ](target).
var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// anchorOf is GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens.
func anchorOf(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchorsIn lists the anchors of a Markdown file's headings (outside code blocks).
func anchorsIn(t *testing.T, path string) map[string]bool {
	t.Helper()
	text, err := os.ReadFile(path)
	require.NoError(t, err)
	out, fenced := map[string]bool{}, false
	for _, line := range strings.Split(string(text), "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		if !fenced && strings.HasPrefix(line, "#") {
			out[anchorOf(strings.TrimLeft(line, "#"))] = true
		}
	}
	return out
}

// The README and the reference beside it link to each other and to the code: every relative link
// (and its #anchor) must lead somewhere, so moving a section cannot leave a dead link behind.
func TestEveryDocumentLinkResolves(t *testing.T) {
	t.Parallel()
	docs, err := filepath.Glob("docs/*.md")
	require.NoError(t, err)
	files := append([]string{"README.md", "SECURITY.md", "BENCHMARKS.md"}, docs...)
	checked := 0
	for _, file := range files {
		text, err := os.ReadFile(file)
		require.NoError(t, err)
		for _, m := range markdownLink.FindAllStringSubmatch(string(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			resolved := file
			if path != "" {
				resolved = filepath.Join(filepath.Dir(file), path)
				_, err := os.Stat(resolved)
				require.NoError(t, err, "%s links to %s", file, target)
			}
			if anchor != "" && strings.HasSuffix(resolved, ".md") {
				require.True(t, anchorsIn(t, resolved)[anchor], "%s links to %s: no such heading", file, target)
			}
			checked++
		}
	}
	require.Greater(t, checked, 20, "the documents link to each other")
}

// The README stays what a newcomer reads in minutes; the reference lives in docs/.
func TestTheREADMEStaysShort(t *testing.T) {
	t.Parallel()
	text, err := os.ReadFile("README.md")
	require.NoError(t, err)
	require.LessOrEqual(t, strings.Count(string(text), "\n"), 300)
}
