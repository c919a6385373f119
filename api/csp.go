package api

import (
	"crypto/sha256"
	"encoding/base64"
	"io/fs"
	"regexp"
	"strings"
)

// inlineScript finds classic inline scripts (the theme-before-paint script of index.html).
var inlineScript = regexp.MustCompile(`(?s)<script>(.*?)</script>`)

// contentSecurityPolicy allows only our own origin, plus the exact inline scripts of the built
// index.html by hash (no 'unsafe-inline' for scripts). The page may not be framed.
func contentSecurityPolicy(web fs.FS) string {
	scripts := []string{"'self'"}
	if web != nil {
		if index, err := fs.ReadFile(web, "index.html"); err == nil {
			for _, m := range inlineScript.FindAllSubmatch(index, -1) {
				sum := sha256.Sum256(m[1])
				scripts = append(scripts, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
			}
		}
	}
	return strings.Join([]string{
		"default-src 'self'",
		"script-src " + strings.Join(scripts, " "),
		"style-src 'self' 'unsafe-inline'",
		"img-src 'self' data: blob:",
		"font-src 'self' data:",
		"connect-src 'self'",
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}, "; ")
}

// relaxedPolicy serves pages we do not build ourselves (asynqmon, development pages) that need
// inline scripts; they still may not be framed.
const relaxedPolicy = "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline' https://fonts.googleapis.com; " +
	"img-src 'self' data:; font-src 'self' data: https://fonts.gstatic.com; connect-src 'self'; object-src 'none'; frame-ancestors 'none'"
