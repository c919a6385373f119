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
	js := readText(t, "web/public/widget/v1.js")
	sum := sha512.Sum384([]byte(js))
	want := "sha384-" + base64.StdEncoding.EncodeToString(sum[:])
	doc := readText(t, "docs/partners.md")
	require.True(t, strings.Contains(doc, `integrity="`+want+`"`),
		"docs/partners.md must publish %s (the drop-in changed: update the page and tell partners)", want)
	// The /integration page prints the same hash in its snippets.
	page := readText(t, "web/src/features/integration/session-samples.ts")
	require.True(t, strings.Contains(page, `DROP_IN_INTEGRITY = '`+want+`'`),
		"web/src/features/integration/session-samples.ts must print %s", want)
}

// readText is a file of the repository, read whole.
func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
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
	text := readText(t, path)
	out, fenced := map[string]bool{}, false
	for _, line := range strings.Split(text, "\n") {
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
	eachMatch(t, files, markdownLink, func(file string, m []string) {
		target := m[1]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
			return
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
	})
	require.Greater(t, checked, 20, "the documents link to each other")
}

// The README stays what a newcomer reads in minutes; the reference lives in docs/.
func TestTheREADMEStaysShort(t *testing.T) {
	t.Parallel()
	text := readText(t, "README.md")
	require.LessOrEqual(t, strings.Count(text, "\n"), 300)
}

// docFiles are the README and the reference beside it.
func docFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("docs/*.md")
	require.NoError(t, err)
	return append([]string{"README.md", "SECURITY.md"}, docs...)
}

// eachMatch calls check with every match of re (its submatches) in each of files, and answers
// how many there were.
func eachMatch(t *testing.T, files []string, re *regexp.Regexp, check func(file string, m []string)) int {
	t.Helper()
	n := 0
	for _, file := range files {
		text := readText(t, file)
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			check(file, m)
			n++
		}
	}
	return n
}

// codeSpan is text between backticks on one line.
var codeSpan = regexp.MustCompile("`([^`\n]+)`")

// writtenByRuns are paths the documents name that a run writes (logs, reports): they are not in a
// fresh clone.
var writtenByRuns = []string{"e2e/server", "e2e/screenshots", "e2e/test-results", "e2e/playwright-report", "e2e/.dev"}

// A path the documents name in backticks that starts with one of the repository's folders
// (`scripts/fuzz.sh`, `postgres/replica.go`, `provider/outbound/`) must exist, so a renamed file
// or folder cannot leave a newcomer looking for it.
func TestEveryDocumentedPathExists(t *testing.T) {
	t.Parallel()
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	folders := map[string]bool{}
	for _, e := range entries {
		if e.IsDir() && e.Name() != "node_modules" && e.Name() != "bin" && e.Name() != ".git" && e.Name() != ".dev" {
			folders[e.Name()] = true
		}
	}
	plain := regexp.MustCompile(`^[\w.\-/*]+$`)
	checked := 0
	eachMatch(t, docFiles(t), codeSpan, func(file string, m []string) {
		p := strings.TrimSuffix(m[1], "/")
		first, _, nested := strings.Cut(p, "/")
		if !nested || !plain.MatchString(p) || !folders[first] {
			return
		}
		for _, w := range writtenByRuns {
			if strings.HasPrefix(p, w) {
				return
			}
		}
		matches, err := filepath.Glob(p)
		require.NoError(t, err)
		require.NotEmpty(t, matches, "%s names `%s`, which does not exist", file, m[1])
		checked++
	})
	require.Greater(t, checked, 50, "the documents name the code they describe")
}

// Every `make <target>` the documents mention is a target of the Makefile.
func TestEveryDocumentedMakeTargetExists(t *testing.T) {
	t.Parallel()
	makefile := readText(t, "Makefile")
	targets := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^([a-z][a-z-]*):`).FindAllStringSubmatch(makefile, -1) {
		targets[m[1]] = true
	}
	mention := regexp.MustCompile("`(?:[A-Z_]+=\\S+ )*make ([a-z][a-z-]*)")
	eachMatch(t, docFiles(t), mention, func(file string, m []string) {
		require.True(t, targets[m[1]], "%s mentions `make %s`, which the Makefile does not have", file, m[1])
	})
}

// The README maps each API URL to the file in api/ that serves it: every file it names must be
// there, so a newcomer's one guess lands.
func TestTheREADMEsRouteTableNamesFilesThatExist(t *testing.T) {
	t.Parallel()
	text := readText(t, "README.md")
	_, table, found := strings.Cut(text, "| URL | File in `api/` |")
	require.True(t, found, "the README has the table of URLs and their files in api/")
	rows := 0
	for _, line := range strings.Split(table, "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(line, "|")
		require.GreaterOrEqual(t, len(cells), 3, line)
		files := 0
		for _, m := range codeSpan.FindAllStringSubmatch(cells[len(cells)-2], -1) {
			if !strings.HasSuffix(m[1], ".go") {
				continue
			}
			matches, err := filepath.Glob(filepath.Join("api", m[1]))
			require.NoError(t, err)
			require.NotEmpty(t, matches, "README's route table names api/%s, which does not exist", m[1])
			files++
		}
		require.Positive(t, files, "a row names at least one file: %s", line)
		rows++
	}
	require.Greater(t, rows, 20)
}

// The README's layout has a line for every folder of the repository and names every folder one
// level down, so a newcomer finds what each holds; a new folder without its line fails here.
func TestTheREADMEsLayoutNamesEveryFolder(t *testing.T) {
	t.Parallel()
	text := readText(t, "README.md")
	_, rest, found := strings.Cut(text, "One line per folder:\n\n```\n")
	require.True(t, found, "the README's layout block")
	block, _, _ := strings.Cut(rest, "```")
	// Not the repository's own: dependencies, build output, development keys, what runs write.
	skip := func(dir string) bool {
		name := filepath.Base(dir)
		if strings.HasPrefix(name, ".") && dir != ".ci" || name == "node_modules" || name == "testdata" || dir == "bin" {
			return true
		}
		for _, w := range writtenByRuns {
			if strings.HasPrefix(dir, w) {
				return true
			}
		}
		return false
	}
	top, err := os.ReadDir(".")
	require.NoError(t, err)
	for _, e := range top {
		if !e.IsDir() || skip(e.Name()) {
			continue
		}
		require.Regexp(t, `(?m)^(\S+, )?`+regexp.QuoteMeta(e.Name())+`/`, block, "README's layout has no line for %s/", e.Name())
		sub, err := os.ReadDir(e.Name())
		require.NoError(t, err)
		for _, s := range sub {
			dir := e.Name() + "/" + s.Name()
			if !s.IsDir() || skip(dir) {
				continue
			}
			require.Contains(t, block, s.Name()+"/", "README's layout does not name %s/", dir)
		}
	}
}

// SECURITY.md and the reference name the tests that prove what they say (`api.TestX`,
// `TestX`, `stripe.TestVerifyWebhook*`): each must be a test function that exists, or a renamed
// or deleted test would leave a claim with no proof behind it.
func TestEveryDocumentedTestExists(t *testing.T) {
	t.Parallel()
	var sources strings.Builder
	require.NoError(t, filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git" || d.Name() == "bin") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, "_test.go") {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sources.Write(b)
		}
		return nil
	}))
	all := sources.String()
	named := regexp.MustCompile("`(?:[a-z][a-z0-9]*\\.)?((?:Test|Fuzz|Benchmark)[A-Z0-9]\\w*)(\\*?)`")
	checked := eachMatch(t, docFiles(t), named, func(file string, m []string) {
		declared := "func " + m[1] + "("
		if m[2] == "*" {
			declared = "func " + m[1]
		}
		require.Contains(t, all, declared, "%s names %s, which no test file declares", file, m[0])
	})
	require.Greater(t, checked, 50)
}
