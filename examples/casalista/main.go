// Command casalista is "CasaLista (demo)", a partner's site written only from Perfil Seguro's
// /integration page, as a partner would: a page that uses the drop-in (/widget/v1.js) with a
// test publishable key, a server that creates verification sessions with a test secret key,
// reads their result, and receives and verifies the webhooks. `make run` starts it on
// http://127.0.0.1:8081 beside the product; the Playwright spec partner-demo.spec.ts drives it.
//
// Configuration (environment): PERFILSEGURO_URL (the product, default http://localhost:8080),
// CASALISTA_PUBLISHABLE_KEY (pk_test_…), CASALISTA_SECRET_KEY (sk_test_…),
// CASALISTA_WEBHOOK_SECRET, CASALISTA_ADDR (default 127.0.0.1:8081).
package main

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"log"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

func main() {
	d := &demo{
		api:           envOr("PERFILSEGURO_URL", "http://localhost:8080"),
		publishable:   os.Getenv("CASALISTA_PUBLISHABLE_KEY"),
		secret:        os.Getenv("CASALISTA_SECRET_KEY"),
		webhookSecret: os.Getenv("CASALISTA_WEBHOOK_SECRET"),
		client:        &http.Client{Timeout: 15 * time.Second},
	}
	if d.publishable == "" || d.secret == "" {
		log.Fatal("casalista: set CASALISTA_PUBLISHABLE_KEY and CASALISTA_SECRET_KEY (scripts/demo-partner.sh does)")
	}
	addr := envOr("CASALISTA_ADDR", "127.0.0.1:8081")
	log.Printf("CasaLista (demo) on http://%s, using Perfil Seguro at %s", addr, d.api)
	log.Fatal(http.ListenAndServe(addr, d.routes()))
}

// dropInIntegrity is the Subresource Integrity hash /integration prints for /widget/v1.js
// (web/src/features/integration/session-samples.ts, DROP_IN_INTEGRITY): the demo pins the
// drop-in as a partner following that page would, so the browser runs only the published file.
// main_test.go checks it against the file and the page's constant.
const dropInIntegrity = "sha384-LVk3R5lMRm0AlVlzpPepLVASJgxcevl90ZYe0LUZOHe8aVT+SRWpi/iWbmhgdNji"

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

// demo is the partner's server: its keys, and the webhooks it received and verified.
type demo struct {
	api, publishable, secret, webhookSecret string
	client                                  *http.Client

	mu     sync.Mutex
	events []receivedEvent // verified webhooks, oldest first
	seen   map[string]bool // X-PerfilSeguro-Delivery values already handled
}

// receivedEvent is one verified webhook, as the demo keeps it.
type receivedEvent struct {
	Delivery string          `json:"delivery"`
	Event    string          `json:"event"`
	Body     json.RawMessage `json:"body"`
}

func (d *demo) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", d.page)
	mux.HandleFunc("POST /api/sesion", d.createSession)
	mux.HandleFunc("GET /api/sesion/{id}", d.readSession)
	mux.HandleFunc("POST /webhooks/perfilseguro", d.webhook)
	mux.HandleFunc("GET /api/eventos", d.listEvents)
	return mux
}

// perfilSeguro calls the partner API with the secret key (the /integration page's Go sample).
func (d *demo) perfilSeguro(method, path string, body, out any) (int, error) {
	var payload bytes.Buffer
	if body != nil {
		if err := json.NewEncoder(&payload).Encode(body); err != nil {
			return 0, err
		}
	}
	req, err := http.NewRequest(method, d.api+path, &payload)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+d.secret)
	req.Header.Set("Content-Type", "application/json")
	res, err := d.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	if res.StatusCode/100 != 2 {
		var e struct{ Message string }
		json.NewDecoder(res.Body).Decode(&e)
		return res.StatusCode, fmt.Errorf("%d: %s", res.StatusCode, e.Message)
	}
	return res.StatusCode, json.NewDecoder(res.Body).Decode(out)
}

// createSession asks Perfil Seguro for a session and gives the page only its client secret.
func (d *demo) createSession(w http.ResponseWriter, r *http.Request) {
	var created struct {
		ID           string `json:"id"`
		ClientSecret string `json:"clientSecret"`
	}
	ref := "visita-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	if _, err := d.perfilSeguro("POST", "/api/partner/v1/verification-sessions", map[string]any{
		"reference": ref, "requiredLevel": 3, "claims": []string{"name", "validUntil"},
		"returnUrl": "http://" + r.Host + "/"}, &created); err != nil {
		writeJSON(w, http.StatusBadGateway, map[string]string{"message": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"id": created.ID, "clientSecret": created.ClientSecret})
}

// readSession reads a session server-side: its status and, when completed, the shared claims.
func (d *demo) readSession(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !strings.HasPrefix(id, "vs_") {
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "id no válido"})
		return
	}
	var session map[string]any
	status, err := d.perfilSeguro("GET", "/api/partner/v1/verification-sessions/"+id, nil, &session)
	if err != nil {
		writeJSON(w, max(status, http.StatusBadGateway), map[string]string{"message": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, session)
}

// webhook verifies X-PerfilSeguro-Signature and keeps each delivery once.
func (d *demo) webhook(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	if !verifyWebhook(d.webhookSecret, r.Header.Get("X-PerfilSeguro-Signature"), body, time.Now()) {
		log.Printf("webhook refused: bad signature")
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	delivery := r.Header.Get("X-PerfilSeguro-Delivery")
	d.mu.Lock()
	if d.seen == nil {
		d.seen = map[string]bool{}
	}
	if !d.seen[delivery] {
		d.seen[delivery] = true
		d.events = append(d.events, receivedEvent{Delivery: delivery, Event: r.Header.Get("X-PerfilSeguro-Event"), Body: body})
	}
	d.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// listEvents shows the verified webhooks (the demo page and the end-to-end test read them).
func (d *demo) listEvents(w http.ResponseWriter, _ *http.Request) {
	d.mu.Lock()
	defer d.mu.Unlock()
	writeJSON(w, http.StatusOK, append([]receivedEvent{}, d.events...))
}

// verifyWebhook is the /integration page's Go sample: t=<unix>,v1=<HMAC-SHA256 of "<t>.<body>">,
// any v1 matching, five minutes of tolerance.
func verifyWebhook(secret, header string, body []byte, now time.Time) bool {
	var t string
	var signatures []string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			t = v
		case "v1":
			signatures = append(signatures, v)
		}
	}
	unix, err := strconv.ParseInt(t, 10, 64)
	if secret == "" || err != nil || now.Sub(time.Unix(unix, 0)).Abs() > 5*time.Minute {
		return false
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(t + "."))
	mac.Write(body)
	expected := hex.EncodeToString(mac.Sum(nil))
	for _, s := range signatures {
		if hmac.Equal([]byte(s), []byte(expected)) {
			return true
		}
	}
	return false
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (d *demo) page(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	pageTemplate.Execute(w, map[string]string{"API": d.api, "Key": d.publishable})
}

var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="es-MX">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>CasaLista (demo)</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; background: #f8fafc; color: #0f172a; }
  header { background: #1e3a8a; color: white; padding: 1rem 1.5rem; }
  main { max-width: 40rem; margin: 2rem auto; padding: 0 1rem; }
  .casa { background: white; border: 1px solid #e2e8f0; border-radius: 1rem; padding: 1.5rem; }
  #resultado { margin-top: 1rem; font-weight: 600; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .25rem 1rem; }
</style>
<script src="{{.API}}/widget/v1.js" integrity="` + dropInIntegrity + `" crossorigin="anonymous"></script>
</head>
<body>
<header><strong>CasaLista (demo)</strong> · sitio de ejemplo de una plataforma socia</header>
<main>
  <section class="casa">
    <h1>Departamento en la Roma Norte</h1>
    <p>3 recámaras · 2 baños · $4,850,000 MXN</p>
    <p>Para agendar una visita, valida tu identidad con Perfil Seguro.</p>
    <perfil-seguro-button publishable-key="{{.Key}}" base-url="{{.API}}" session-endpoint="/api/sesion"></perfil-seguro-button>
    <p id="resultado" role="status"></p>
    <dl id="datos" hidden></dl>
  </section>
</main>
<script>
  const resultado = document.getElementById('resultado');

  async function mostrar(id, status) {
    resultado.textContent = 'Sesión ' + id + ': ' + status;
    resultado.dataset.status = status;
    // La página no confía en status: el servidor de CasaLista lee la sesión con su llave secreta.
    const sesion = await fetch('/api/sesion/' + encodeURIComponent(id)).then((r) => r.json());
    resultado.textContent = 'Sesión ' + id + ': ' + sesion.status;
    resultado.dataset.status = sesion.status;
    const datos = document.getElementById('datos');
    datos.replaceChildren();
    for (const [k, v] of Object.entries(sesion.shared || {})) {
      const dt = document.createElement('dt'); dt.textContent = k;
      const dd = document.createElement('dd'); dd.textContent = String(v); dd.dataset.claim = k;
      datos.append(dt, dd);
    }
    datos.hidden = !sesion.shared;
  }

  // The button asks /api/sesion for a client secret and opens the hosted flow.
  document.addEventListener('perfilseguro:result', (e) => mostrar(e.detail.id, e.detail.status));
  document.addEventListener('perfilseguro:error', (e) => { resultado.textContent = e.detail.message; });

  const vuelta = PerfilSeguro.resultFromUrl();
  if (vuelta) mostrar(vuelta.id, vuelta.status);
</script>
</body>
</html>
`))
