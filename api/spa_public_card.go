package api

import (
	"bytes"
	"encoding/json"
	"html/template"
	"math"
	"strconv"
	"time"
)

// publicCard is the static copy of the public page's first card (web/src/features/public-verify/
// components/public-verify-screen.tsx: the same texts, classes and structure), which the server
// writes into #root of /verify/{id} so a phone paints the masked name, level, badge and validity
// with the stylesheet, before any JavaScript (issue 54 item 19). It carries no inert attribute, so
// main.tsx does not hydrate it: React replaces it with its identical render. Icons are empty
// boxes of the icon's size (the layout does not move when React draws them).
var publicCard = template.Must(template.New("card").Parse(`{{define "field"}}<div>` +
	`<dt class="flex items-center gap-1.5 text-xs uppercase tracking-wide text-base-content/70">` +
	`{{if .Icon}}<svg class="lucide size-4" width="24" height="24" viewBox="0 0 24 24" aria-hidden="true"></svg>{{end}}{{.Label}}</dt>` +
	`<dd class="mt-0.5 font-medium break-words {{if .Mono}}font-mono text-sm{{end}} {{.Emphasis}}">{{.Value}}</dd></div>{{end}}` +
	`<div class="mx-auto w-full max-w-3xl px-4 py-10 sm:py-14">` +
	`<div class="mb-6 text-center"><h1 class="text-3xl font-bold">Verificación de perfil</h1>` +
	`<p class="mt-1 font-mono text-sm text-base-content/70">{{.ID}}</p></div>` +
	`<div class="space-y-6"><div class="card bg-base-100 border border-base-300 shadow-sm"><div class="card-body gap-5">` +
	`<div class="flex flex-wrap items-start justify-between gap-3"><div class="flex items-center gap-3">` +
	`<div class="rounded-full p-3 {{if .Good}}bg-success/15 text-success{{else}}bg-base-200 text-base-content/70{{end}}">` +
	`<svg class="lucide size-7" width="24" height="24" viewBox="0 0 24 24" aria-hidden="true"></svg></div>` +
	`<div><h2 class="card-title text-2xl">{{.Name}}</h2><p class="font-mono text-sm text-base-content/70">{{.ID}}</p></div></div>` +
	`<span class="badge gap-1 {{.BadgeClass}} badge-lg" data-testid="public-badge">{{.Badge}}</span></div>` +
	`<dl class="grid grid-cols-1 gap-4 sm:grid-cols-2">{{range .Fields}}{{template "field" .}}{{end}}</dl>` +
	`{{with .Alert}}<div role="alert" class="alert alert-soft items-start {{.Class}}"><div class="space-y-1">` +
	`<h3 class="font-semibold">{{.Title}}</h3><div class="text-sm">{{.Text}}</div></div></div>{{end}}` +
	`</div></div>` +
	`<div class="card bg-base-100 border border-base-300 shadow-sm"><div class="card-body gap-4">` +
	`<h2 class="card-title">Detalles de la verificación biométrica</h2>` +
	`{{if .Details}}<dl class="grid grid-cols-1 gap-4 sm:grid-cols-3">{{range .Details}}{{template "field" .}}{{end}}</dl>` +
	`<div class="grid grid-cols-1 gap-3 sm:grid-cols-2">{{range .Scores}}<div><div class="flex justify-between text-sm">` +
	`<span>{{.Label}}</span><span class="font-semibold">{{.Text}}</span></div>` +
	`<progress class="progress progress-primary w-full" value="{{.Value}}" max="100" aria-label="{{.Label}}"></progress></div>{{end}}</div>` +
	`{{else}}<p class="text-sm text-base-content/70">Este perfil aún no tiene una verificación biométrica registrada.</p>{{end}}` +
	`</div></div></div></div>`))

// cardField is one line of the card's list.
type cardField struct {
	Label, Value, Emphasis string
	Icon, Mono             bool
}

// cardScore is one of the biometric scores: its label, its text and the bar's value.
type cardScore struct {
	Label, Text string
	Value       float64
}

// cardAlert is the card's revoked or expired notice.
type cardAlert struct{ Class, Title, Text string }

// cardView is what publicCard shows.
type cardView struct {
	ID, Name, Badge, BadgeClass string
	Good                        bool
	Fields, Details             []cardField
	Scores                      []cardScore
	Alert                       *cardAlert
}

// publicCardHTML renders the card of the public answer (the JSON embeddedPublicRecord returns),
// or nil if it does not parse.
func publicCardHTML(answer []byte) []byte {
	var res PublicVerifyResponse
	if json.Unmarshal(answer, &res) != nil || res.Profile.ID == "" {
		return nil
	}
	p := res.Profile
	badge, class := publicBadge(p)
	v := cardView{ID: p.ID, Name: p.Nombre, Badge: badge, BadgeClass: class, Good: badge == "Verificado"}
	level := "Nivel " + strconv.Itoa(p.NivelVerificacion) + " de 3"
	if p.Revocado {
		level = "Revocado"
	}
	years := strconv.Itoa(p.VigenciaAnos) + " años"
	if p.VigenciaAnos == 1 {
		years = "1 año"
	}
	expiry := cardField{Label: "Fecha de expiración", Value: spanishDate(p.FechaExpiracion), Icon: true}
	if p.Expirado {
		expiry.Emphasis = "text-error"
	}
	v.Fields = []cardField{
		{Icon: true, Label: "Teléfono", Value: orNotRegistered(p.Telefono)},
		{Icon: true, Label: "Correo electrónico", Value: orNotRegistered(p.Email)},
		{Icon: true, Label: "Origen", Value: p.Origen},
		{Icon: true, Label: "Nivel de verificación", Value: level},
		{Icon: true, Label: "Fecha de validación", Value: spanishDate(p.FechaValidacion)},
		expiry,
		{Icon: true, Label: "Vigencia", Value: years},
	}
	// The ID's expiry ends the validity before the plan does (issue 52): its last day, and why
	// (public-verify-screen.tsx: validityText).
	if p.VenceIdentificacion && p.FechaExpiracion != nil && !p.Expirado && !p.Revocado {
		lastDay := p.FechaExpiracion.Add(-time.Millisecond)
		v.Fields[len(v.Fields)-1].Value = "Vigente hasta " + spanishDate(&lastDay) + " (vence su identificación)"
	}
	if d := res.VerificationDetails; d != nil {
		env := "—"
		if d.Ambiente != nil {
			env = *d.Ambiente
			if words, ok := environmentWords[env]; ok {
				env = words
			}
		}
		session := "—"
		if d.SessionID != nil {
			session = *d.SessionID
		}
		v.Details = []cardField{
			{Label: "ID de sesión", Value: session, Mono: true},
			{Label: "Ambiente", Value: env},
			{Label: "Fecha de verificación", Value: spanishDate(d.FechaVerificacion)},
		}
		v.Scores = []cardScore{score("Puntuación general", d.Scores.Overall), score("Coincidencia facial", d.Scores.FaceMatch),
			score("Documento", d.Scores.Document), score("Prueba de vida", d.Scores.Liveness)}
	}
	switch {
	case p.Revocado:
		v.Alert = &cardAlert{Class: "alert-error", Title: "Validación revocada",
			Text: "Perfil Seguro revocó la validación de esta identidad el " + spanishDate(p.FechaRevocacion) + ". No la consideres válida."}
	case p.Expirado:
		v.Alert = &cardAlert{Class: "alert-warning", Title: "Validación expirada",
			Text: "La validación de esta identidad venció el " + spanishDate(p.FechaExpiracion) + "."}
	}
	var buf bytes.Buffer
	if publicCard.Execute(&buf, v) != nil {
		return nil
	}
	return buf.Bytes()
}

// publicBadge is the badge's text and daisyUI class (web/src/features/public-verify/badge.ts).
func publicBadge(p PublicProfileJSON) (label, class string) {
	switch {
	case p.Revocado:
		return "Revocado", "badge-error"
	case p.Expirado:
		return "Expirado", "badge-error"
	case p.Verificado && p.NivelVerificacion >= 3:
		return "Verificado", "badge-success"
	case p.NivelVerificacion >= 2:
		return "Email Verificado", "badge-primary"
	case p.NivelVerificacion >= 1:
		return "SMS Verificado", "badge-secondary"
	}
	return "No Verificado", "badge-outline"
}

// environmentWords names the biometric provider's environment (the page's ENVIRONMENT).
var environmentWords = map[string]string{"production": "Producción", "development": "Desarrollo (simulador)",
	"test": "Pruebas", "sandbox": "Pruebas del proveedor"}

// score is a score's line: "87.5%" (at most two decimals, as es-MX writes them) or "—".
func score(label string, value *float64) cardScore {
	if value == nil {
		return cardScore{Label: label, Text: "—"}
	}
	v := math.Round(*value*100) / 100
	return cardScore{Label: label, Text: strconv.FormatFloat(v, 'f', -1, 64) + "%", Value: *value}
}

func orNotRegistered(s *string) string {
	if s == nil {
		return "No registrado"
	}
	return *s
}

// spanishMonths are es-MX month names, as toLocaleDateString('es-MX', {month: 'long'}) writes them.
var spanishMonths = [...]string{"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio",
	"agosto", "septiembre", "octubre", "noviembre", "diciembre"}

// spanishDate is the page's formatDate: "5 de marzo de 2026" in Mexico City time, or "—".
func spanishDate(t *time.Time) string {
	if t == nil {
		return "—"
	}
	d := t.In(mexicoCity)
	return strconv.Itoa(d.Day()) + " de " + spanishMonths[d.Month()-1] + " de " + strconv.Itoa(d.Year())
}

// mexicoCity is the page's time zone (UTC-6 all year since 2022 when no zone data is found).
var mexicoCity = func() *time.Location {
	if loc, err := time.LoadLocation("America/Mexico_City"); err == nil {
		return loc
	}
	return time.FixedZone("CST", -6*60*60)
}()

// withPublicCard puts the card into the page's empty #root, inside the site's frame (header and
// footer) as the build prerendered it for /login, so nothing moves when React renders.
func withPublicCard(page, card []byte) []byte {
	root := []byte(`<div id="root"></div>`)
	i := bytes.Index(page, root)
	if i < 0 || card == nil {
		return page
	}
	head, foot := siteFrame(page)
	at := i + len(root) - len("</div>")
	var out []byte
	out = append(out, page[:at]...)
	out = append(out, head...)
	out = append(out, card...)
	out = append(out, foot...)
	return append(out, page[at:]...)
}

// siteFrame is the markup of the site's frame around <main>'s content, taken from the prerendered
// /login screen in the page (vite.config.ts), or nothing if the page has none.
func siteFrame(page []byte) (head, foot []byte) {
	open := []byte(`<template id="shell:/login:light"><div inert aria-hidden="true">`)
	i := bytes.Index(page, open)
	if i < 0 {
		return nil, nil
	}
	tpl := page[i+len(open):]
	end := bytes.Index(tpl, []byte(`</div></template>`))
	if end < 0 {
		return nil, nil
	}
	tpl = tpl[:end]
	m := bytes.Index(tpl, []byte(`<main `))
	if m < 0 {
		return nil, nil
	}
	mEnd := bytes.IndexByte(tpl[m:], '>')
	closeMain := bytes.LastIndex(tpl, []byte(`</main>`))
	if mEnd < 0 || closeMain < m {
		return nil, nil
	}
	return tpl[:m+mEnd+1], tpl[closeMain:]
}
