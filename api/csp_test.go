package api_test

import (
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
)

// The built index.html of issue 38: inline scripts in <head> and at the end of <body>, a JSON data
// block and <template>s of prerendered screens. Every classic inline script is allowed by its hash,
// in order; the data block is no script to allow; nothing inline is allowed otherwise.
func TestCSPHashesEveryInlineScriptOfTheShell(t *testing.T) {
	t.Parallel()
	head, body := "document.documentElement.setAttribute('data-theme','light')", "\n(function () { var r = document.getElementById('root') })()\n"
	index := `<!doctype html><html><head><script>` + head + `</script>` +
		`<script type="application/json" id="first-paint">{"entry":"/assets/index-x.js"}</script>` +
		`<link rel="stylesheet" href="/assets/index.css"></head><body><div id="root"></div>` +
		`<template id="shell:/login:light"><div inert aria-hidden="true"><h1>Iniciar Sesión</h1></div></template>` +
		`<script>` + body + `</script></body></html>`
	e := setup(t, func(d *api.Deps) { d.Web = fstest.MapFS{"index.html": {Data: []byte(index)}} })
	for _, path := range []string{"/", "/login", "/register"} {
		res, _ := e.do(t, "GET", path, "", "")
		csp := res.Header.Get("Content-Security-Policy")
		require.Contains(t, csp, "script-src 'self' "+hash(head)+" "+hash(body)+"; ", path)
		require.NotContains(t, csp, hash(`{"entry":"/assets/index-x.js"}`), path)
		require.NotContains(t, strings.Split(csp, "style-src")[0], "unsafe-inline", path)
	}
}

func hash(script string) string {
	sum := sha256.Sum256([]byte(script))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}
