package api

import (
	"context"
	"net/http"
	"time"
)

// handleHealthz answers while the process is alive.
func (s *Server) handleHealthz(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// handleReadyz answers 200 only when Postgres and Redis both answer and the process is not
// shutting down.
func (s *Server) handleReadyz(w http.ResponseWriter, r *http.Request) {
	if s.draining.Load() {
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"status": "draining",
			"message": "El servicio no está listo. Intenta nuevamente en unos momentos."})
		return
	}
	pgOK, redisOK := s.readiness(r.Context())
	checks := map[string]string{"postgres": "ok", "redis": "ok"}
	if !pgOK {
		checks["postgres"] = "unreachable"
	}
	if !redisOK {
		checks["redis"] = "unreachable"
	}
	if !pgOK || !redisOK {
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"status": "unavailable", "checks": checks,
			"message": "El servicio no está listo. Intenta nuevamente en unos momentos."})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": "ok", "checks": checks})
}

// readiness pings Postgres and Redis (2 s at most), as /readyz and /metrics (perfilseguro_ready)
// report them. While Redis's breaker is open (redisconn/breaker.go) its ping fails at once, as
// the requests that need Redis do, until the breaker's probe reaches it.
func (s *Server) readiness(ctx context.Context) (postgres, redis bool) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	return s.db.PingContext(ctx) == nil, s.redis.Ping(ctx).Err() == nil
}

// robotsTxt keeps crawlers off the public verification pages (a link to one would make a
// validated person's name searchable) and off the API.
const robotsTxt = "User-agent: *\nDisallow: /verify/\nDisallow: /verify\nDisallow: /api/\nDisallow: /dev/\n"

func handleRobots(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=86400")
	w.Write([]byte(robotsTxt))
}

// docsPage renders the OpenAPI document for partners with Redoc, from our own origin (the bundle
// is built into the web app's dist/docs/): no CDN, no inline script, the usual CSP.
const docsPage = `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Referencia de la API · Perfil Seguro</title>
</head>
<body>
<redoc spec-url="/api/openapi.json" disable-search hide-hostname="false" native-scrollbars></redoc>
<script src="/docs/redoc.standalone.js"></script>
</body>
</html>
`

func handleDocs(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write([]byte(docsPage))
}
