package api

import (
	"html/template"
	"net/http"
	"regexp"
	"strings"

	"github.com/perfilseguro/perfilseguro/provider/devsim"
)

var urlPattern = regexp.MustCompile(`https?://[^\s<>"]+`)

// linkify escapes text and turns the URLs in it into links, so that e-mail and invitation
// links can be followed from the development inbox.
func linkify(text string) template.HTML {
	var b strings.Builder
	last := 0
	for _, m := range urlPattern.FindAllStringIndex(text, -1) {
		b.WriteString(template.HTMLEscapeString(text[last:m[0]]))
		u := template.HTMLEscapeString(text[m[0]:m[1]])
		b.WriteString(`<a href="` + u + `">` + u + `</a>`)
		last = m[1]
	}
	b.WriteString(template.HTMLEscapeString(text[last:]))
	return template.HTML(b.String())
}

// The development inbox shows every message the local providers "sent" (development only).
var inboxPage = template.Must(template.New("inbox").Funcs(template.FuncMap{"linkify": linkify}).Parse(`<!doctype html>
<html lang="es-MX"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bandeja de desarrollo · Perfil Seguro</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f8fafc;color:#0f172a}
header{background:#1e3a8a;color:#fff;padding:1rem 1.5rem}
main{max-width:56rem;margin:0 auto;padding:1.5rem}
article{background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;padding:1rem 1.25rem;margin-bottom:1rem}
.meta{font-size:.85rem;color:#475569;margin-bottom:.5rem}
.channel{display:inline-block;border-radius:999px;padding:.1rem .6rem;background:#dbeafe;color:#1e3a8a;font-weight:600;margin-right:.5rem}
pre{white-space:pre-wrap;font-family:inherit;margin:.5rem 0}
a{color:#1d4ed8;word-break:break-all}
</style></head><body>
<header><h1>Bandeja de desarrollo</h1><p>Mensajes de WhatsApp, SMS y correo enviados por la aplicación en modo desarrollo. Los más recientes primero.</p></header>
<main>
{{if not .}}<p>Aún no hay mensajes.</p>{{end}}
{{range .}}<article data-testid="inbox-message" data-to="{{.Recipient}}" data-channel="{{.Channel}}">
<div class="meta"><span class="channel">{{if eq .Channel "whatsapp"}}WhatsApp{{else if eq .Channel "sms"}}SMS{{else if eq .Channel "apns"}}APNs{{else if eq .Channel "googlewallet"}}Google Wallet{{else}}Correo{{end}}</span>
Para: <strong>{{.Recipient}}</strong> · {{.CreatedAt.Format "02/01/2006 15:04:05"}}</div>
{{with .Subject}}<h2>{{.}}</h2>{{end}}
<pre data-testid="inbox-text">{{linkify .Text}}</pre>
</article>{{end}}
</main></body></html>`))

func (s *Server) mountDevInbox() {
	s.handle("GET /dev/inbox", http.HandlerFunc(s.devInboxPage), nil)
	s.handle("GET /dev/inbox.json", http.HandlerFunc(s.devInboxJSON), nil)
}

func (s *Server) devInboxAvailable(w http.ResponseWriter, r *http.Request) bool {
	if s.cfg.Production() {
		writeError(w, r, httpError(http.StatusNotFound, "Recurso no encontrado."))
		return false
	}
	return true
}

// devInboxMessages lists the newest messages (to ?to= when given) outside production; false
// when it has answered instead.
func (s *Server) devInboxMessages(w http.ResponseWriter, r *http.Request) ([]devsim.Message, bool) {
	if !s.devInboxAvailable(w, r) {
		return nil, false
	}
	msgs, err := s.inbox.List(r.Context(), r.URL.Query().Get("to"), 100)
	if err != nil {
		writeError(w, r, err)
		return nil, false
	}
	return msgs, true
}

func (s *Server) devInboxPage(w http.ResponseWriter, r *http.Request) {
	msgs, ok := s.devInboxMessages(w, r)
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	inboxPage.Execute(w, msgs)
}

func (s *Server) devInboxJSON(w http.ResponseWriter, r *http.Request) {
	msgs, ok := s.devInboxMessages(w, r)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, msgs)
}
