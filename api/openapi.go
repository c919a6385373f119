package api

import (
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// The OpenAPI document partners generate clients from (issue 20). fuego describes its routes;
// finishOpenAPI makes the result a valid 3.1 contract: 3.1 types instead of 3.0's nullable,
// servers, contact and licence, the security each operation accepts, tag descriptions, and none
// of the framework's noise (XML bodies, controller names, its own error shape).

// Security schemes: the person's session, the administrator's session, a partner's key, a
// wallet's access token (OpenID4VCI).
const (
	secSession = "sesion"
	secAdmin   = "administrador"
	secPartner = "socio"
	secSecret  = "llaveSecreta"
	secWallet  = "billetera"
	secConsole = "consolaSocio"
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
	"Credenciales":   "Credenciales verificables SD-JWT VC, su lista de revocación y su emisión a billeteras (OpenID4VCI 1.0, código preautorizado) y su presentación a plataformas socias (OpenID4VP 1.0).",
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
			Description: "Llave publicable de la plataforma socia (pk_live_… o pk_test_…): es pública; nunca revela datos de una persona."}},
		secSecret: {Value: &openapi3.SecurityScheme{Type: "http", Scheme: "bearer",
			Description: "Llave secreta de la plataforma socia (sk_live_… o sk_test_…), solo desde su servidor: Authorization: Bearer sk_…. Se muestra una sola vez al crearla."}},
		secConsole: {Value: &openapi3.SecurityScheme{Type: "apiKey", In: "cookie", Name: partnerCookie,
			Description: "Sesión de la consola de socios (/socios): cookie HttpOnly que se obtiene con una llave de acceso (POST /api/socios/passkey/verify), 8 horas."}},
		secWallet: {Value: &openapi3.SecurityScheme{Type: "http", Scheme: "bearer",
			Description: "Token de acceso de la billetera (POST /api/oid4vci/token), 5 minutos. Si el token se ligó a una llave DPoP, se envía como Authorization: DPoP <token> con la prueba en el encabezado DPoP."}},
	}
	for i, tag := range doc.Tags {
		if d, ok := tagDescriptions[tag.Name]; ok {
			doc.Tags[i].Description = d
		}
	}
	// 3.1's webhooks: kin-openapi's T has no field for them, so they travel as a top-level member.
	if doc.Extensions == nil {
		doc.Extensions = map[string]any{}
	}
	doc.Extensions["webhooks"] = partnerWebhooks()
	delete(doc.Components.Schemas, "HTTPError")
	delete(doc.Components.Schemas, "unknown-interface")
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			finishOperation(method, path, op)
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
func finishOperation(method, path string, op *openapi3.Operation) {
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
		if len(op.RequestBody.Value.Content) > 1 { // fuego's alternatives; a form alone is a real form (OAuth token endpoint)
			delete(op.RequestBody.Value.Content, "application/x-www-form-urlencoded")
		}
		if any, ok := op.RequestBody.Value.Content["*/*"]; ok { // every body is JSON
			delete(op.RequestBody.Value.Content, "*/*")
			if _, has := op.RequestBody.Value.Content["application/json"]; !has {
				op.RequestBody.Value.Content["application/json"] = any
			}
		}
	}
	req := securityFor(path)
	op.Security = &req
	documentErrors(method, path, op, len(req) > 0 && len(req[0]) > 0)
}

// errorStatuses are the refusals every operation of a kind can answer, each with {message}.
var errorDescriptions = map[int]string{
	202: "Aceptado: se está preparando; consulte de nuevo en unos segundos",
	402: "Pago requerido: elija y pague su plan antes de la verificación biométrica",
	502: "El proveedor rechazó la operación",
	400: "Solicitud no válida (los campos con error en errors)",
	401: "Sin sesión o credencial válida",
	403: "Prohibido: no es suyo, o el origen no está autorizado",
	404: "No encontrado",
	409: "Conflicto con el estado actual",
	410: "Ya no está disponible (vencido o usado)",
	413: "La solicitud es demasiado grande",
	415: "Tipo de contenido no compatible: envíe JSON",
	429: "Demasiadas solicitudes: espere los segundos de Retry-After",
	500: "Error interno",
	503: "Servicio no disponible por un momento: reintente después de Retry-After",
}

// extraStatuses are the answers particular operations give beyond their kind's.
var extraStatuses = map[string][]int{
	"POST /api/register":                         {409, 429},
	"POST /api/login":                            {404, 409, 429},
	"POST /api/verify-code":                      {404, 410, 429},
	"POST /api/admin/login":                      {401, 429},
	"POST /api/widget/login":                     {401, 404, 409, 429},
	"POST /api/widget/verify-code":               {401, 404, 409, 410, 429},
	"GET /api/widget/verify":                     {401, 409, 429},
	"POST /api/invitations":                      {409, 429},
	"POST /api/invitations/accept":               {404, 409, 410, 429},
	"GET /api/invitations/validate":              {404, 409, 410},
	"DELETE /api/invitations/{id}":               {409},
	"GET /api/invitations/validate-token":        {404, 410},
	"POST /api/credentials":                      {202, 409},
	"GET /api/credentials/{id}":                  {202},
	"POST /api/users/{id}/credential-offers":     {409, 429},
	"POST /api/widget/presentations":             {409, 429},
	"GET /api/widget/presentations/{id}":         {409},
	"POST /api/users":                            {409},
	"PUT /api/users/{id}":                        {409},
	"POST /api/admin/users/{id}/revoke":          {409},
	"GET /api/wallet/google/{userId}":            {202, 409},
	"POST /api/send-email-verification-link":     {409, 429},
	"POST /api/start-verification":               {202, 402, 409, 429, 502},
	"POST /api/payments/checkout":                {202, 409, 429, 502},
	"POST /api/admin/payments/{id}/refund":       {202, 409},
	"GET /api/start-verification/{id}":           {202, 502},
	"POST /api/admin/partners":                   {409},
	"PUT /api/admin/partners/{id}/webhook":       {409},
	"DELETE /api/users/{id}":                     {},
	"POST /api/users/{id}/consents":              {409, 429},
	"GET /api/users/{id}/consents":               {429},
	"GET /api/users/{id}/arco-requests":          {429},
	"GET /api/users/{id}/consultations":          {429},
	"POST /api/users/{id}/data-export":           {409, 429},
	"GET /api/users/{id}/data-exports":           {429},
	"PUT /api/users/{id}/personal-data":          {409, 429},
	"POST /api/users/{id}/contact-change":        {409, 429},
	"POST /api/users/{id}/contact-change/verify": {409, 410, 429},
	"POST /api/users/{id}/confirmation-code":     {409, 429},
	"POST /api/users/{id}/confirmation":          {429},
	"PUT /api/admin/arco-requests/{id}":          {409},
	"POST /api/admin/arco-requests":              {404},

	// Passkeys (passkeys.go).
	"POST /api/auth/passkey/options":                    {429},
	"POST /api/auth/passkey/verify":                     {401, 410, 429},
	"GET /api/users/{id}/passkeys":                      {429},
	"POST /api/users/{id}/passkeys/options":             {429},
	"POST /api/users/{id}/passkeys":                     {409, 410, 429},
	"PATCH /api/users/{id}/passkeys/{credentialId}":     {429},
	"DELETE /api/users/{id}/passkeys/{credentialId}":    {429},
	"POST /api/users/{id}/confirmation/passkey/options": {409, 429},
	"POST /api/users/{id}/confirmation/passkey":         {410, 429},
	// Administrators and their passkeys (admin_accounts.go, admin_passkeys.go).
	"POST /api/admin/admins":                {409},
	"PUT /api/admin/admins/{id}":            {409},
	"POST /api/admin/admins/{id}/disable":   {409},
	"POST /api/admin/admins/{id}/enrolment": {409},
	"GET /api/admin/enrol":                  {410},
	"POST /api/admin/enrol/options":         {410},
	"POST /api/admin/enrol/verify":          {401, 409, 410},
	"POST /api/admin/passkey/verify":        {401, 410, 429},
	"POST /api/admin/reauth/options":        {409},
	"POST /api/admin/reauth":                {409, 410},
	// The partner console and its passkeys (partner_console*.go).
	"POST /api/admin/partners/{id}/users":     {409},
	"POST /api/admin/partners/{id}/activate":  {409},
	"GET /api/socios/enrol":                   {410},
	"POST /api/socios/enrol/options":          {410},
	"POST /api/socios/enrol/verify":           {401, 409, 410},
	"POST /api/socios/passkey/options":        {429},
	"POST /api/socios/passkey/verify":         {401, 410, 429},
	"POST /api/socios/deliveries/{id}/resend": {409},
	"PUT /api/socios/origin":                  {409},
	"POST /api/socios/users":                  {409},
	"PUT /api/socios/users/{id}":              {409},
	"POST /api/socios/users/{id}/disable":     {409},
	"POST /api/socios/users/{id}/enrolment":   {409},
}

// documentErrors lists the statuses an operation can answer: by its kind (a body can be
// malformed or too large, a secured one refused, a path can name nothing, any can fail) and
// those of extraStatuses. A test validates every answer the API tests receive against them.
func documentErrors(method, path string, op *openapi3.Operation, secured bool) {
	codes := []int{500, 503}
	if op.RequestBody != nil || method == "POST" || method == "PUT" {
		codes = append(codes, 400, 413, 415, 403) // 403: a foreign Origin on a state change
	}
	hasPath := false
	for _, p := range op.Parameters {
		if p.Value == nil {
			continue
		}
		codes = append(codes, 400)
		if p.Value.In == "path" {
			hasPath = true
		}
	}
	if hasPath {
		codes = append(codes, 404)
	}
	if secured {
		codes = append(codes, 401, 403)
	}
	codes = append(codes, extraStatuses[method+" "+path]...)
	for _, code := range codes {
		key := strconv.Itoa(code)
		if op.Responses.Value(key) != nil {
			continue
		}
		desc := errorDescriptions[code]
		resp := &openapi3.Response{Description: &desc}
		switch {
		case code == 202:
			if ok := op.Responses.Value("200"); ok != nil && ok.Value != nil {
				resp.Content = ok.Value.Content
			}
		default:
			resp.Content = openapi3.Content{"application/json": &openapi3.MediaType{
				Schema: &openapi3.SchemaRef{Ref: "#/components/schemas/ErrorBody"}}}
		}
		if code == 429 || code == 503 {
			resp.Headers = openapi3.Headers{"Retry-After": {Value: &openapi3.Header{Parameter: openapi3.Parameter{
				Description: "Segundos que conviene esperar antes de reintentar.", Schema: openapi3.NewIntegerSchema().NewRef()}}}}
		}
		op.Responses.Set(key, &openapi3.ResponseRef{Value: resp})
	}
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
	case path == "/api/admin/login", strings.HasPrefix(path, "/api/admin/enrol"), strings.HasPrefix(path, "/api/admin/passkey/"):
		return openapi3.SecurityRequirements{} // they open a session (enrolment link, passkey, development password)
	case strings.HasPrefix(path, "/api/admin/"):
		return require(secAdmin)
	case path == "/api/socios/logout", strings.HasPrefix(path, "/api/socios/enrol"), strings.HasPrefix(path, "/api/socios/passkey/"):
		return openapi3.SecurityRequirements{} // they open (or end) a console session
	case strings.HasPrefix(path, "/api/socios/"):
		return require(secConsole)
	case path == "/api/widget/verify":
		return openapi3.SecurityRequirements{{secSecret: []string{}}, {}} // without a secret key: nobody's data
	case strings.HasPrefix(path, "/api/partner/v1/"):
		return require(secSecret)
	case strings.HasPrefix(path, "/api/widget/presentations"):
		return require(secPartner)
	case path == oid4vciCredentialPath, path == oid4vciDeferredPath:
		return require(secWallet)
	case strings.HasPrefix(path, "/api/widget/"):
		return require(secPartner) // the widget sign-in: the publishable key (our own app calls it same-origin)
	case path == "/api/users" || path == "/api/users/search":
		return require(secAdmin)
	case path == "/api/users/{id}":
		return openapi3.SecurityRequirements{{secSession: []string{}}, {secAdmin: []string{}}}
	case strings.HasPrefix(path, "/api/users/"), strings.HasPrefix(path, "/api/wallet/"),
		path == "/api/auth/status", path == "/api/send-email-verification-link",
		strings.HasPrefix(path, "/api/start-verification"), strings.HasPrefix(path, "/api/credentials"),
		strings.HasPrefix(path, "/api/payments/"),
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

// requiredFields marks enums and descriptions (below) and, in the schema of each Go struct, the fields its JSON always carries:
// those without omitempty (a pointer without omitempty is always there too, as null when
// nil). Generated clients then know what they can rely on; the contract check of the API tests
// holds every answer to it.
func requiredFields(_ string, t reflect.Type, tag reflect.StructTag, schema *openapi3.Schema) error {
	// A field's closed set of values (tag enum:"a,b"), so clients get a union, not any string.
	// On a list (tag on a []string) the values are its items': the items were made with the
	// same tag first, and the list itself takes no enum.
	if values, ok := tag.Lookup("enum"); ok && len(schema.Enum) == 0 && !schema.Type.Is(openapi3.TypeArray) {
		for _, v := range strings.Split(values, ",") {
			schema.Enum = append(schema.Enum, v)
		}
	}
	// A field's meaning where its name is not enough (tag description:"…"), for the reference and
	// the SDKs' types (fuego reads the tag too, but not for the documents built with openapi3gen
	// alone, as routes_doc.go's are).
	if d, ok := tag.Lookup("description"); ok {
		schema.Description = d
		// The field's items or values were made with the same tag first: the text is the field's.
		inner := []*openapi3.SchemaRef{schema.Items}
		if schema.AdditionalProperties.Schema != nil {
			inner = append(inner, schema.AdditionalProperties.Schema)
		}
		for _, r := range inner {
			if r != nil && r.Ref == "" && r.Value != nil && r.Value.Description == d {
				r.Value.Description = ""
			}
		}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() || f.Anonymous {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero") {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, ok := schema.Properties[name]; ok && !slices.Contains(schema.Required, name) {
			schema.Required = append(schema.Required, name)
		}
	}
	return nil
}
