package api

import (
	"html/template"
	"net/http"
)

// linkPage is the content of a page shown for an e-mail link that did not verify.
type linkPage struct {
	Title   string
	Message string
}

// The pages of e-mail links that cannot verify.
var (
	linkUnknown = linkPage{"Enlace no válido",
		"Este enlace de verificación no es válido. Revisa que lo hayas copiado completo o solicita uno nuevo desde tu perfil."}
	linkUsed = linkPage{"Enlace ya utilizado",
		"Este enlace de verificación ya fue utilizado. Si tu correo aún no aparece como verificado, solicita un nuevo enlace desde tu perfil."}
	linkExpired = linkPage{"Enlace vencido",
		"Este enlace de verificación venció: los enlaces son válidos por 24 horas. Solicita uno nuevo desde tu perfil."}
	linkNeedsLevel1 = linkPage{"Requiere Nivel 1",
		"Primero verifica tu número de teléfono. Después podrás verificar tu correo electrónico con este mismo enlace."}
	linkFailed = linkPage{"No pudimos verificar tu correo",
		"Ocurrió un error al verificar tu correo electrónico. Intenta abrir el enlace nuevamente en unos minutos."}
)

var linkPageTemplate = template.Must(template.New("link").Parse(`<!doctype html>
<html lang="es-MX"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} · Perfil Seguro</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f1f5f9;color:#0f172a}
main{max-width:28rem;margin:1rem;background:#fff;border:1px solid #e2e8f0;border-radius:1rem;padding:2rem;box-shadow:0 1px 3px rgba(15,23,42,.08);text-align:center}
.brand{font-weight:700;color:#1e40af;margin-bottom:1rem}
h1{font-size:1.4rem;margin:0 0 .75rem}
p{line-height:1.55;color:#334155}
a.button{display:inline-block;margin-top:1rem;background:#1d4ed8;color:#fff;text-decoration:none;font-weight:600;border-radius:.6rem;padding:.75rem 1.25rem}
</style></head><body><main>
<div class="brand">Perfil Seguro</div>
<h1>{{.Title}}</h1>
<p>{{.Message}}</p>
<a class="button" href="/profile">Ir a mi perfil</a>
</main></body></html>`))

func renderLinkPage(w http.ResponseWriter, status int, p linkPage) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = linkPageTemplate.Execute(w, p)
}
