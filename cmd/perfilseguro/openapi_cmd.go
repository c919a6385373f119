package main

import (
	"fmt"
	"io"
	"testing/fstest"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/config"
	"github.com/perfilseguro/perfilseguro/credential"
)

// runOpenAPI prints the API's OpenAPI document, as GET /api/openapi.json serves it, without a
// database, Redis or a listening server: the web app's types are generated from it.
func runOpenAPI(out io.Writer) error {
	cfg, err := config.Load(func(k string) string {
		switch k {
		case "APP_ENV":
			return config.EnvTest
		case "PUBLIC_BASE_URL":
			return "https://perfilseguro.mx" // the documented server, whatever this machine's setting
		}
		return ""
	})
	if err != nil {
		return err
	}
	srv, err := api.New(api.Deps{Config: cfg, Web: fstest.MapFS{"index.html": {Data: []byte("<!doctype html>")}},
		Credentials: &credential.Issuer{URL: cfg.PublicBaseURL}})
	if err != nil {
		return fmt.Errorf("openapi: %w", err)
	}
	_, err = out.Write(append(srv.OpenAPISpec(), '\n'))
	return err
}
