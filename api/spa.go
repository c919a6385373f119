package api

import (
	"bytes"
	"html"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"strings"
	"time"
)

// placeholderIndex is served when the web app has not been built (go build before npm run build).
const placeholderIndex = `<!doctype html><html lang="es-MX"><meta charset="utf-8"><title>Perfil Seguro</title>
<body><h1>Perfil Seguro</h1><p>La aplicación web no se ha compilado. Ejecuta <code>make run</code>.</p></body></html>`

// spaHandler serves the built app: real files as they are (hashed assets cached for a year),
// and index.html for every other path so client routes work on reload. onboardingURL
// (ONBOARDING_URL) goes into index.html for the landing's buttons.
func spaHandler(dist fs.FS, onboardingURL string) http.Handler {
	return spaHandlerWith(dist, onboardingURL, nil)
}

// spaHandlerWith is spaHandler whose index.html also carries, for a request that embed answers
// (non-nil), that answer: the public record of /verify/{id} (spa_public.go).
func spaHandlerWith(dist fs.FS, onboardingURL string, embed func(*http.Request) []byte) http.Handler {
	index, err := fs.ReadFile(dist, "index.html")
	if err != nil {
		index = []byte(placeholderIndex)
	}
	index = withOnboardingURL(index, onboardingURL)
	files := http.FileServer(http.FS(dist))
	// Text files go out gzip-compressed to clients that accept it (spa_gzip.go).
	compressed := &gzipFiles{dist: dist}
	indexGz := gzipBytes(index)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			writeError(w, r, httpError(http.StatusMethodNotAllowed, "Método no permitido."))
			return
		}
		// API paths and well-known documents are machine-read: a JSON 404, never the app's HTML.
		if strings.HasPrefix(r.URL.Path, "/api/") || strings.HasPrefix(r.URL.Path, "/.well-known/") {
			writeError(w, r, httpError(http.StatusNotFound, "Recurso no encontrado."))
			return
		}
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if name != "" && name != "index.html" {
			if st, err := fs.Stat(dist, name); err == nil && !st.IsDir() {
				switch {
				case strings.HasPrefix(name, "assets/"):
					w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
				case strings.HasPrefix(name, "widget/"):
					// The partners' drop-in: loaded by their pages (CORS lets them pin it with
					// integrity=), and refreshed within minutes when we fix it.
					w.Header().Set("Cache-Control", "public, max-age=300")
					w.Header().Set("Access-Control-Allow-Origin", "*")
				case name == "sw.js":
					// The service worker must be checked for updates on every visit of the verifier.
					w.Header().Set("Cache-Control", "no-cache")
				default:
					w.Header().Set("Cache-Control", "public, max-age=3600")
				}
				if !serveGzip(w, r, name, compressed.get(name)) {
					files.ServeHTTP(w, r)
				}
				return
			}
		}
		w.Header().Set("Cache-Control", "no-cache")
		if strings.HasPrefix(r.URL.Path, "/verify") {
			w.Header().Set("X-Robots-Tag", "noindex, nofollow") // a person's public page is not for search engines
		}
		if embed != nil && r.Method == http.MethodGet {
			if answer := embed(r); answer != nil {
				// A person's record: stored nowhere, as the API's answer is not.
				w.Header().Set("Cache-Control", "no-store")
				page := withPublicCard(withPublicRecord(index, answer), publicCardHTML(answer))
				if acceptsGzip(r) && serveGzip(w, r, "index.html", gzipPage(page)) {
					return
				}
				http.ServeContent(w, r, "index.html", time.Time{}, bytes.NewReader(page))
				return
			}
		}
		if serveGzip(w, r, "index.html", indexGz) {
			return
		}
		http.ServeContent(w, r, "index.html", time.Time{}, bytes.NewReader(index))
	})
}

// withOnboardingURL puts ONBOARDING_URL in the page's head, where web/src/lib/config.ts reads
// it: where the landing's buttons go is a setting of the server, not of the web build.
func withOnboardingURL(index []byte, url string) []byte {
	i := bytes.Index(index, []byte("</head>"))
	if url == "" || i < 0 {
		return index
	}
	tag := `<meta name="ps-onboarding-url" content="` + html.EscapeString(url) + `">`
	return slices.Concat(index[:i], []byte(tag), index[i:])
}
