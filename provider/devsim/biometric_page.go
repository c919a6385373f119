package devsim

import (
	"context"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/didit"
)

// BiometricPage serves the simulator's hosted page (GET and POST BiometricPath + "{session}"):
// the page shows the identity document (an INE in the registered name, editable), the developer
// presses Aprobar, Rechazar or Enviar a revisión with it, or a one-click case (Cases: an approval
// with a name that differs, an expired ID, ...), the decision and document are recorded, a
// correctly signed webhook goes to WebhookURL, and the popup returns to the session's callback.
// A webhook our endpoint could not take for now (a 5xx or 429 answer, or no answer: a Postgres
// failover, a restart) is delivered again in the background, as a provider does, until it is
// answered 2xx or the schedule runs out; the popup returns meanwhile.
type BiometricPage struct {
	Sim           Biometric
	WebhookURL    string       // our own POST /api/webhooks/biometric
	WebhookSecret string       // signs the webhook exactly as Didit does
	HTTP          *http.Client // default: 10-second timeout
	Now           func() time.Time
	Logger        *slog.Logger
	// Redeliver is the wait before each new delivery of a webhook answered 5xx, 429 or not at
	// all (nil: redeliverySchedule, redeliver.go).
	Redeliver []time.Duration
}

// decisions maps the page's buttons to provider statuses.
var decisions = map[string]string{
	"approve": perfilseguro.BiometricApproved,
	"decline": perfilseguro.BiometricDeclined,
	"review":  perfilseguro.BiometricInReview,
}

// statusText says a provider status in Spanish.
var statusText = map[string]string{
	perfilseguro.BiometricNotStarted: "Sin iniciar",
	perfilseguro.BiometricInProgress: "En proceso",
	perfilseguro.BiometricApproved:   "Aprobada",
	perfilseguro.BiometricDeclined:   "Rechazada",
	perfilseguro.BiometricInReview:   "En revisión",
}

type pageData struct {
	Session BiometricSession
	Status  string
	Error   string
	Return  string
	Doc     SimDocument
	Cases   []struct{ Value, Label string }
	States  []struct{ Code, Name string }
}

// ServeHTTP shows the page (GET) or records a decision (POST).
func (p BiometricPage) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("session")
	s, err := p.Sim.Session(r.Context(), id)
	if err != nil {
		p.render(w, http.StatusNotFound, pageData{Error: "Esta sesión de verificación no existe o ya no está disponible."})
		return
	}
	doc := p.Sim.DocumentFor(r.Context(), s, p.now())
	if d := s.Doc(); d != nil {
		doc = *d
	}
	if r.Method != http.MethodPost {
		p.render(w, http.StatusOK, pageData{Session: s, Status: statusText[s.Status], Return: returnURL(s), Doc: doc})
		return
	}
	doc = postedDocument(r, doc)
	status, ok := decisions[r.PostFormValue("decision")]
	if c := r.PostFormValue("case"); c != "" {
		doc, ok = doc.WithCase(c, p.now())
		status = perfilseguro.BiometricApproved
	}
	if !ok {
		p.render(w, http.StatusBadRequest, pageData{Session: s, Status: statusText[s.Status], Doc: doc,
			Error: "Elige una de las opciones."})
		return
	}
	s, err = p.Sim.DecideWith(r.Context(), id, status, &doc)
	if err != nil {
		p.render(w, http.StatusConflict, pageData{Session: s, Status: statusText[s.Status], Return: returnURL(s),
			Error: "Esta sesión ya tiene una decisión final."})
		return
	}
	body := s.WebhookBody(p.now())
	send := func(ctx context.Context) error { return p.sendWebhook(ctx, body) }
	if err := deliverOrLater(r.Context(), p.Redeliver, p.logger(), send, "session", s.SessionID); err != nil {
		p.logger().Error("devsim webhook failed", "session", s.SessionID, "error", err)
		p.render(w, http.StatusBadGateway, pageData{Session: s, Status: statusText[s.Status], Return: returnURL(s),
			Error: "La decisión se guardó, pero no se pudo avisar a Perfil Seguro. La conciliación periódica la aplicará más tarde."})
		return
	}
	http.Redirect(w, r, returnURL(s), http.StatusSeeOther)
}

// postedDocument is the document as edited on the page; a field left out of the form keeps
// the default, and an empty CURP is built from the rest.
func postedDocument(r *http.Request, d SimDocument) SimDocument {
	_ = r.ParseForm() // a malformed body leaves PostForm empty: the default document
	fields := map[string]*string{
		"document_type": &d.DocumentType, "document_number": &d.DocumentNumber, "personal_number": &d.PersonalNumber,
		"given_names": &d.GivenNames, "first_surname": &d.FirstSurname, "second_surname": &d.SecondSurname,
		"date_of_birth": &d.DateOfBirth, "sex": &d.Sex, "state": &d.State, "issue_date": &d.IssueDate,
		"expiry_date": &d.ExpiryDate, "registry": &d.Registry,
	}
	for name, field := range fields {
		if v, ok := r.PostForm[name]; ok && len(v) > 0 {
			*field = strings.TrimSpace(v[0])
		}
	}
	for _, f := range []*string{&d.GivenNames, &d.FirstSurname, &d.SecondSurname, &d.PersonalNumber} {
		*f = strings.ToUpper(strings.Join(strings.Fields(*f), " "))
	}
	if d.PersonalNumber == "" {
		d.PersonalNumber = d.CURP()
	}
	return d
}

func (p BiometricPage) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

// sendWebhook POSTs the signed status.updated webhook, as Didit would. Every delivery of one
// decision carries the same body (the API stores a webhook once per body) with a fresh
// X-Timestamp, so a late one is still within the 5-minute tolerance.
func (p BiometricPage) sendWebhook(ctx context.Context, body []byte) error {
	return postWebhook(ctx, p.HTTP, p.WebhookURL, body, func(h http.Header) {
		h.Set(didit.SignatureHeader, didit.SignWebhook(p.WebhookSecret, body))
		h.Set(didit.TimestampHeader, strconv.FormatInt(p.now().Unix(), 10))
	})
}

// returnURL is the callback with the parameters Didit appends (verificationSessionId, status).
func returnURL(s BiometricSession) string {
	cb := "/return"
	if s.CallbackURL != nil && *s.CallbackURL != "" {
		cb = *s.CallbackURL
	}
	u, err := url.Parse(cb)
	if err != nil {
		return "/return"
	}
	q := u.Query()
	if q.Get("userId") == "" {
		q.Set("userId", s.VendorData)
	}
	q.Set("verificationSessionId", s.SessionID)
	q.Set("status", s.Status)
	u.RawQuery = q.Encode()
	return u.String()
}

func (p BiometricPage) logger() *slog.Logger { return loggerOr(p.Logger) }

func (p BiometricPage) render(w http.ResponseWriter, status int, d pageData) {
	d.Cases, d.States = Cases, simStates
	renderPage(w, status, biometricPage, d, p.logger(), "devsim page")
}

var biometricPage = template.Must(template.New("biometric").Parse(`<!doctype html>
<html lang="es-MX"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Simulador de verificación biométrica · Perfil Seguro</title>
<style>
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;background:#f1f5f9;color:#0f172a}
header{background:#0f172a;color:#fff;padding:1rem 1.5rem}
header small{display:inline-block;background:#f59e0b;color:#0f172a;font-weight:700;border-radius:999px;padding:.1rem .6rem;margin-left:.5rem}
main{max-width:34rem;margin:2rem auto;padding:0 1rem}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:1rem;padding:1.5rem;box-shadow:0 1px 3px rgba(15,23,42,.08)}
h1{font-size:1.25rem;margin:0}
h2{font-size:1.15rem;margin:0 0 .5rem}
p{line-height:1.5;color:#334155}
dl{display:grid;grid-template-columns:auto 1fr;gap:.35rem 1rem;font-size:.9rem;margin:1rem 0}
dt{color:#64748b}
dd{margin:0;font-family:ui-monospace,monospace;word-break:break-all}
fieldset{border:1px solid #e2e8f0;border-radius:.75rem;padding:1rem;margin:1rem 0;display:grid;grid-template-columns:1fr 1fr;gap:.6rem .8rem}
legend{font-weight:600;padding:0 .4rem}
label{display:grid;gap:.2rem;font-size:.85rem;color:#475569}
label.wide{grid-column:1/-1}
input,select{font:inherit;font-size:.95rem;padding:.45rem .55rem;border:1px solid #cbd5e1;border-radius:.45rem;color:#0f172a;background:#fff;min-width:0}
.cases{display:grid;grid-template-columns:1fr 1fr;gap:.5rem}
.case{background:#334155;font-weight:500;font-size:.9rem;padding:.6rem .7rem}
@media (max-width:30rem){fieldset,.cases{grid-template-columns:1fr}}
.actions{display:grid;gap:.75rem;margin-top:1.25rem}
button{font:inherit;font-weight:600;border:0;border-radius:.6rem;padding:.8rem 1rem;cursor:pointer;color:#fff}
.approve{background:#16a34a}.decline{background:#dc2626}.review{background:#d97706}
button:hover{filter:brightness(1.08)}
.error{background:#fef2f2;border:1px solid #fecaca;color:#991b1b;border-radius:.6rem;padding:.75rem 1rem;margin-bottom:1rem}
a{color:#1d4ed8}
</style></head><body>
<header><h1>Verificación biométrica <small>Simulador de desarrollo</small></h1></header>
<main><div class="card">
{{with .Error}}<div class="error" role="alert">{{.}}</div>{{end}}
{{if .Session.SessionID}}
<h2>Sesión de verificación</h2>
<p>Esta página sustituye al proveedor de verificación mientras desarrollas. Elige el resultado de la captura de identificación y selfie: se enviará un webhook firmado a Perfil Seguro y esta ventana regresará a la aplicación.</p>
<dl>
<dt>Sesión</dt><dd data-testid="session-id">{{.Session.SessionID}}</dd>
<dt>Usuario</dt><dd>{{.Session.VendorData}}</dd>
<dt>Estado</dt><dd data-testid="session-status">{{.Status}}</dd>
</dl>
{{if .Session.Decidable}}
<form method="post">
<fieldset>
<legend>Identificación que se muestra</legend>
<label>Tipo de documento<select name="document_type">
<option value="Identity Card"{{if eq .Doc.DocumentType "Identity Card"}} selected{{end}}>INE (credencial para votar)</option>
<option value="Passport"{{if eq .Doc.DocumentType "Passport"}} selected{{end}}>Pasaporte mexicano</option>
</select></label>
<label>Número de documento<input name="document_number" value="{{.Doc.DocumentNumber}}"></label>
<label class="wide">Nombre(s)<input name="given_names" value="{{.Doc.GivenNames}}"></label>
<label>Primer apellido<input name="first_surname" value="{{.Doc.FirstSurname}}"></label>
<label>Segundo apellido<input name="second_surname" value="{{.Doc.SecondSurname}}"></label>
<label>Fecha de nacimiento<input type="date" name="date_of_birth" value="{{.Doc.DateOfBirth}}"></label>
<label>Sexo<select name="sex">
<option value="F"{{if eq .Doc.Sex "F"}} selected{{end}}>Mujer</option>
<option value="M"{{if eq .Doc.Sex "M"}} selected{{end}}>Hombre</option>
</select></label>
<label>Estado de nacimiento<select name="state">{{$state := .Doc.State}}{{range .States}}
<option value="{{.Code}}"{{if eq .Code $state}} selected{{end}}>{{.Name}}</option>{{end}}
</select></label>
<label>CURP (vacía: se calcula)<input name="personal_number" value="{{.Doc.PersonalNumber}}" maxlength="18"></label>
<label>Fecha de expedición<input type="date" name="issue_date" value="{{.Doc.IssueDate}}"></label>
<label>Vigente hasta<input type="date" name="expiry_date" value="{{.Doc.ExpiryDate}}"></label>
<label class="wide">RENAPO sobre la CURP<select name="registry">
<option value="full_match"{{if eq .Doc.Registry "full_match"}} selected{{end}}>Coincide</option>
<option value="no_match"{{if eq .Doc.Registry "no_match"}} selected{{end}}>No coincide</option>
</select></label>
</fieldset>
<div class="actions">
<button class="approve" name="decision" value="approve" type="submit">Aprobar</button>
<button class="decline" name="decision" value="decline" type="submit">Rechazar</button>
<button class="review" name="decision" value="review" type="submit">Enviar a revisión</button>
</div>
<p>Casos de un clic (se aprueban con la identificación cambiada así):</p>
<div class="cases">{{range .Cases}}
<button class="case" name="case" value="{{.Value}}" type="submit">{{.Label}}</button>{{end}}
</div>
</form>
{{end}}
{{with .Return}}<p><a href="{{.}}">Volver a Perfil Seguro</a></p>{{end}}
{{end}}
</div></main></body></html>`))
