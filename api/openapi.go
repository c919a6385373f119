package api

import (
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// The OpenAPI document partners generate clients from (issue 20). fuego describes its routes;
// finishOpenAPI makes the result a valid 3.1 contract: 3.1 types instead of 3.0's nullable,
// servers, contact and licence, the security each operation accepts, tag descriptions, and none
// of the framework's noise (XML bodies, controller names, its own error shape).

// Security schemes: the person's session, the administrator's session, a partner's key.
const (
	secSession = "sesion"
	secAdmin   = "administrador"
	secPartner = "socio"
)

// tagDescriptions explain each group of operations.
var tagDescriptions = map[string]string{
	"Autenticación":  "Registro, códigos de un solo uso por WhatsApp o correo, sesión.",
	"Usuarios":       "El perfil propio y, para administradores, la gestión de usuarios.",
	"Verificación":   "Niveles 2 y 3: enlace de correo y verificación biométrica.",
	"Pases":          "Pases de Apple Wallet y Google Wallet, código QR y verificación pública.",
	"Invitaciones":   "Invitaciones que las personas de nivel 3 envían a clientes y brokers.",
	"Administración": "Panel de administración: sesión, socios, ciclo de vida de los perfiles.",
	"Widget":         "API para plataformas socias (CORS restringido o llave X-Partner-Key).",
	"Credenciales":   "Credenciales verificables SD-JWT VC y su lista de revocación.",
}

// finishOpenAPI edits fuego's document in place.
func finishOpenAPI(doc *openapi3.T, publicBaseURL, supportEmail string) {
	doc.OpenAPI = "3.1.0"
	doc.Servers = openapi3.Servers{{URL: publicBaseURL, Description: "Perfil Seguro"}}
	doc.Info.Contact = &openapi3.Contact{Name: "Soporte técnico de Perfil Seguro", Email: supportEmail, URL: publicBaseURL + "/integration"}
	doc.Info.License = &openapi3.License{Name: "Propietaria: uso sujeto al contrato de integración", URL: publicBaseURL + "/integration"}
	if doc.Components == nil {
		doc.Components = &openapi3.Components{}
	}
	doc.Components.SecuritySchemes = openapi3.SecuritySchemes{
		secSession: {Value: &openapi3.SecurityScheme{Type: "apiKey", In: "cookie", Name: sessionCookie,
			Description: "Sesión de la persona: cookie HttpOnly que se obtiene al verificar un código (POST /api/verify-code)."}},
		secAdmin: {Value: &openapi3.SecurityScheme{Type: "apiKey", In: "cookie", Name: adminCookie,
			Description: "Sesión de administrador (POST /api/admin/login), 4 horas."}},
		secPartner: {Value: &openapi3.SecurityScheme{Type: "apiKey", In: "header", Name: "X-Partner-Key",
			Description: "Llave de la plataforma socia, para llamadas de servidor a servidor."}},
	}
	for i, tag := range doc.Tags {
		if d, ok := tagDescriptions[tag.Name]; ok {
			doc.Tags[i].Description = d
		}
	}
	delete(doc.Components.Schemas, "HTTPError")
	delete(doc.Components.Schemas, "unknown-interface")
	for path, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			finishOperation(path, op)
		}
	}
	seen := map[*openapi3.Schema]bool{}
	for _, s := range doc.Components.Schemas {
		nullableToTypes(s, seen)
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			for _, p := range op.Parameters {
				if p.Value != nil {
					nullableToTypes(p.Value.Schema, seen)
				}
			}
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				for _, mt := range op.RequestBody.Value.Content {
					nullableToTypes(mt.Schema, seen)
				}
			}
			for _, r := range op.Responses.Map() {
				if r.Value != nil {
					for _, mt := range r.Value.Content {
						nullableToTypes(mt.Schema, seen)
					}
				}
			}
		}
	}
}

// finishOperation removes fuego's noise from one operation and names the security it accepts.
func finishOperation(path string, op *openapi3.Operation) {
	if strings.HasPrefix(op.Description, "#### Controller") {
		op.Description = ""
	}
	params := op.Parameters[:0]
	for _, p := range op.Parameters {
		if p.Value != nil && p.Value.In == "header" && p.Value.Name == "Accept" {
			continue // every operation answers JSON
		}
		params = append(params, p)
	}
	op.Parameters = params
	errorRef := &openapi3.SchemaRef{Ref: "#/components/schemas/ErrorBody"}
	for code, r := range op.Responses.Map() {
		if r.Value == nil {
			continue
		}
		delete(r.Value.Content, "application/xml")
		if code == "default" {
			op.Responses.Delete(code)
			continue
		}
		if mt, ok := r.Value.Content["application/json"]; ok && mt.Schema != nil && mt.Schema.Ref == "#/components/schemas/HTTPError" {
			mt.Schema = errorRef
		}
		if code == "500" {
			desc := "Error interno: {message} en español."
			r.Value.Description = &desc
		}
	}
	if op.RequestBody != nil && op.RequestBody.Value != nil {
		delete(op.RequestBody.Value.Content, "application/xml")
		delete(op.RequestBody.Value.Content, "application/x-www-form-urlencoded")
	}
	req := securityFor(path)
	op.Security = &req
}

// securityFor is what an operation accepts, by its path; public operations accept anything
// (an empty requirement).
func securityFor(path string) openapi3.SecurityRequirements {
	require := func(name string) openapi3.SecurityRequirements {
		return openapi3.SecurityRequirements{{name: []string{}}}
	}
	switch {
	case path == "/metrics":
		return require(secAdmin)
	case path == "/api/admin/login":
		return openapi3.SecurityRequirements{}
	case strings.HasPrefix(path, "/api/admin/"):
		return require(secAdmin)
	case path == "/api/widget/verify":
		return require(secPartner)
	case strings.HasPrefix(path, "/api/widget/"):
		return openapi3.SecurityRequirements{} // the browser widget: the partner's origin (CORS)
	case path == "/api/users" || path == "/api/users/search":
		return require(secAdmin)
	case path == "/api/users/{id}":
		return openapi3.SecurityRequirements{{secSession: []string{}}, {secAdmin: []string{}}}
	case strings.HasPrefix(path, "/api/users/"), strings.HasPrefix(path, "/api/wallet/"),
		path == "/api/auth/status", path == "/api/send-email-verification-link",
		strings.HasPrefix(path, "/api/start-verification"), strings.HasPrefix(path, "/api/credentials"),
		path == "/api/invitations", strings.HasPrefix(path, "/api/invitations/{"):
		return require(secSession)
	}
	return openapi3.SecurityRequirements{}
}

// nullableToTypes writes OpenAPI 3.0's nullable as a 3.1 type list ("string" → ["string","null"]).
func nullableToTypes(ref *openapi3.SchemaRef, seen map[*openapi3.Schema]bool) {
	if ref == nil || ref.Value == nil || seen[ref.Value] {
		return
	}
	s := ref.Value
	seen[s] = true
	if s.Nullable {
		s.Nullable = false
		if s.Type != nil && len(*s.Type) > 0 && !s.Type.Includes("null") {
			t := append(openapi3.Types{}, *s.Type...)
			t = append(t, "null")
			s.Type = &t
		}
	}
	for _, p := range s.Properties {
		nullableToTypes(p, seen)
	}
	nullableToTypes(s.Items, seen)
	if s.AdditionalProperties.Schema != nil {
		nullableToTypes(s.AdditionalProperties.Schema, seen)
	}
	for _, list := range []openapi3.SchemaRefs{s.AllOf, s.OneOf, s.AnyOf} {
		for _, r := range list {
			nullableToTypes(r, seen)
		}
	}
}
