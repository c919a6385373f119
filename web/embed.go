// Package web holds the built React single-page app so the Go binary can
// serve it without files on disk.
package web

import (
	"embed"
	"io/fs"
)

// Dist is the Vite build output (web/dist), embedded at compile time; a
// committed dist/.gitkeep keeps `go build` working before `npm run build`.
//
//go:embed all:dist
var Dist embed.FS

// DistFS returns the dist subtree so that "index.html" sits at its root.
func DistFS() fs.FS {
	sub, err := fs.Sub(Dist, "dist")
	if err != nil {
		// fs.Sub fails only for an invalid path, and "dist" is valid.
		panic(err)
	}
	return sub
}
