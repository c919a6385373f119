package api

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"
)

// compressible lists the extensions of the app's text files that are served gzip-compressed.
var compressible = map[string]bool{".js": true, ".css": true, ".html": true, ".svg": true, ".json": true, ".txt": true, ".map": true}

// gzipFiles holds the gzip form of the app's text files, made once on first request: the
// embedded files never change while the process runs.
type gzipFiles struct {
	dist  fs.FS
	cache sync.Map // name -> []byte (nil when the file cannot be compressed)
}

// acceptsGzip reports whether the request's Accept-Encoding allows gzip.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(coding), "gzip") {
			return strings.ReplaceAll(strings.TrimSpace(params), " ", "") != "q=0"
		}
	}
	return false
}

// gzipBytes compresses b at the best level.
func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // the level is valid
	_, _ = zw.Write(b)                                       // writes to a bytes.Buffer do not fail
	_ = zw.Close()
	return buf.Bytes()
}

// get returns the gzip form of a text file of dist, or nil when it has none.
func (g *gzipFiles) get(name string) []byte {
	if !compressible[path.Ext(name)] {
		return nil
	}
	if v, ok := g.cache.Load(name); ok {
		return v.([]byte)
	}
	var gz []byte
	if b, err := fs.ReadFile(g.dist, name); err == nil {
		gz = gzipBytes(b)
	}
	g.cache.Store(name, gz)
	return gz
}

// serveGzip answers with the gzip form of a text file (name in dist, or content for index.html)
// when the client accepts it, and reports whether it did. Every answer for such a file varies
// by Accept-Encoding.
func serveGzip(w http.ResponseWriter, r *http.Request, name string, gz []byte) bool {
	ext := path.Ext(name)
	if !compressible[ext] {
		return false
	}
	w.Header().Add("Vary", "Accept-Encoding")
	if gz == nil || !acceptsGzip(r) {
		return false
	}
	h := w.Header()
	if ct := mime.TypeByExtension(ext); ct != "" {
		h.Set("Content-Type", ct)
	}
	h.Set("Content-Encoding", "gzip")
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(gz))
	return true
}
