package api

import (
	"github.com/getkin/kin-openapi/openapi3"
)

// The partner notifications, in the document's 3.1 "webhooks" section: what Perfil Seguro POSTs
// to a partner's webhook URL, and how to check that it came from us.

// signatureRecipe is how a partner verifies a notification (the integration page shows the same
// steps in code).
const signatureRecipe = "Cada notificación trae el encabezado X-PerfilSeguro-Signature: t=<segundos Unix>,v1=<firma>. " +
	"Para comprobarla: (1) separe t y v1; (2) calcule HMAC-SHA256 con el secreto del webhook (se muestra una sola vez al " +
	"configurarlo) sobre el texto \"<t>.<cuerpo exacto recibido>\", en hexadecimal; (3) compare con v1 en tiempo constante; " +
	"(4) rechace si t difiere más de 5 minutos de su reloj. Durante una rotación del secreto (24 horas) llegan dos v1, una por " +
	"cada secreto: acepte si cualquiera coincide. X-PerfilSeguro-Delivery identifica la entrega: una repetición " +
	"trae el mismo valor y debe ignorarse. Responda 2xx; cualquier otra respuesta se reintenta con espera creciente."

// webhookEvent is one notification's payload.
type webhookEvent struct {
	name, summary string
	payload       *openapi3.Schema
}

func partnerWebhooks() map[string]*openapi3.PathItem {
	str := openapi3.NewStringSchema
	withProps := func(required []string, props map[string]*openapi3.Schema) *openapi3.Schema {
		s := openapi3.NewObjectSchema()
		for k, v := range props {
			s.WithProperty(k, v)
		}
		s.Required = required
		return s
	}
	event := func(name string) *openapi3.Schema { return str().WithEnum(name) }
	level := withProps([]string{"event", "userId", "profileId", "verificationLevel", "biometricVerified", "changedAt"},
		map[string]*openapi3.Schema{"event": event("user.verification_level_changed"), "userId": openapi3.NewInt64Schema(),
			"profileId": str(), "verificationLevel": openapi3.NewIntegerSchema().WithMin(0).WithMax(3),
			"biometricVerified": openapi3.NewBoolSchema(), "changedAt": openapi3.NewDateTimeSchema()})
	lifecycle := func(name string, withUser bool) *openapi3.Schema {
		props := map[string]*openapi3.Schema{"event": event(name), "profileId": str(), "changedAt": openapi3.NewDateTimeSchema()}
		required := []string{"event", "profileId", "changedAt"}
		if withUser {
			props["userId"] = openapi3.NewInt64Schema()
			required = append(required, "userId")
		}
		return withProps(required, props)
	}
	payment := withProps([]string{"event", "userId", "profileId", "plan", "years", "amount", "currency", "paidAt"},
		map[string]*openapi3.Schema{"event": event("payment.completed"), "userId": openapi3.NewInt64Schema(),
			"profileId": str(), "plan": str().WithEnum("one_year", "five_years"),
			"years": openapi3.NewIntegerSchema().WithEnum(1, 5), "amount": openapi3.NewFloat64Schema(),
			"currency": str().WithEnum("MXN"), "paidAt": openapi3.NewDateTimeSchema()})
	claims := openapi3.NewObjectSchema().WithAnyAdditionalProperties()
	claims.Description = "Solo los datos pedidos, como los compartió la billetera (por ejemplo {\"name\": \"…\"})"
	presentation := withProps([]string{"event", "id", "claims", "completedAt"},
		map[string]*openapi3.Schema{"event": event("presentation.completed"), "id": openapi3.NewUUIDSchema(),
			"claims":      claims,
			"completedAt": openapi3.NewDateTimeSchema()})
	sessionClaims := openapi3.NewObjectSchema().WithAnyAdditionalProperties()
	sessionClaims.Description = "Los datos que la persona compartió, solo los pedidos, como los responde GET …/verification-sessions/{id} en shared: " +
		"name, profileId, validUntil, level y, de la identificación oficial que certifica el perfil, givenName, familyName, birthdate (AAAA-MM-DD), " +
		"ageOver18 (boolean, calculado el día en que se compartió), nationality (ISO 3166-1 alfa-3) y curp; uno no disponible no va y se lista en unavailableClaims"
	session := func(name string, completed bool) *openapi3.Schema {
		props := map[string]*openapi3.Schema{"event": event(name), "id": str().WithPattern(`^vs_[0-9a-f]{24}$`),
			"reference": str(), "status": str(), "livemode": openapi3.NewBoolSchema(),
			"requiredLevel": openapi3.NewIntegerSchema().WithEnum(2, 3), "createdAt": openapi3.NewDateTimeSchema(),
			"endedAt": openapi3.NewDateTimeSchema()}
		required := []string{"event", "id", "reference", "status", "livemode", "requiredLevel", "createdAt"}
		if completed {
			proof := str()
			proof.Description = "JWS compacto (ES256, typ perfilseguro-session+jwt) sobre la sesión y los datos; verifíquelo con las llaves de /.well-known/jwt-vc-issuer"
			gone := openapi3.NewSchema()
			gone.Type = &openapi3.Types{"null"}
			gone.Description = "Solo en un reintento o un reenvío posterior a un retiro o una eliminación: null, y ni claims ni proof"
			reason := str().WithEnum("withdrawn", "deleted")
			reason.Description = "Por qué ya no van los datos: withdrawn (la persona retiró el acceso de su plataforma) o deleted (eliminó su cuenta)"
			unavailable := openapi3.NewArraySchema().WithItems(str().WithEnum("givenName", "familyName", "birthdate", "ageOver18", "nationality", "curp"))
			unavailable.Description = "Los datos de la identificación pedidos que no van en claims: el perfil se validó antes de que Perfil Seguro " +
				"leyera la identificación, o esta no los trae. Ausente si no falta ninguno"
			props["claims"], props["proof"], props["shared"], props["sharedReason"] = sessionClaims, proof, gone, reason
			props["unavailableClaims"] = unavailable
		}
		return withProps(required, props)
	}
	sessionRef := withProps([]string{"id", "reference"},
		map[string]*openapi3.Schema{"id": str().WithPattern(`^vs_[0-9a-f]{24}$`), "reference": str()})
	sessionRefs := openapi3.NewArraySchema().WithItems(sessionRef)
	sessionRefs.Description = "Las sesiones que la persona completó con su plataforma en este modo, de la más reciente a la más antigua, " +
		"con su propia referencia: desde ahora responden solo su estado (shared: null, sharedReason: withdrawn)"
	revokedProfile := str()
	revokedProfile.Description = "Solo si la persona le había compartido su ID de perfil"
	revoked := withProps([]string{"event", "sessions", "livemode", "revokedAt"},
		map[string]*openapi3.Schema{"event": event("profile.access_revoked"), "sessions": sessionRefs, "profileId": revokedProfile,
			"livemode": openapi3.NewBoolSchema(), "revokedAt": openapi3.NewDateTimeSchema()})
	deletedSessions := openapi3.NewArraySchema().WithItems(sessionRef)
	deletedSessions.Description = "Las sesiones que la persona completó con su plataforma en este modo, de la más reciente a la más antigua, " +
		"con su propia referencia: desde ahora responden solo su estado (shared: null, sharedReason: deleted)"
	deleted := withProps([]string{"event", "sessions", "livemode", "deletedAt"},
		map[string]*openapi3.Schema{"event": event("profile.deleted"), "sessions": deletedSessions, "profileId": revokedProfile,
			"livemode": openapi3.NewBoolSchema(), "deletedAt": openapi3.NewDateTimeSchema()})
	amlSessions := openapi3.NewArraySchema().WithItems(sessionRef)
	amlSessions.Description = "Las sesiones con amlProfile que la persona completó con su plataforma en este modo y que aún comparten sus datos: " +
		"GET …/verification-sessions/{id} responde en amlDeclaration la versión nueva"
	amlUpdated := withProps([]string{"event", "sessions", "livemode", "version", "signedAt"},
		map[string]*openapi3.Schema{"event": event("aml.declaration_updated"), "sessions": amlSessions, "livemode": openapi3.NewBoolSchema(),
			"version": openapi3.NewIntegerSchema().WithMin(2), "signedAt": openapi3.NewDateTimeSchema()})
	events := []webhookEvent{
		{"aml.declaration_updated", "La persona corrigió su declaración de conocimiento del cliente (una nueva versión firmada) y se compartió con su plataforma, que había recibido una anterior", amlUpdated},
		{"verification_session.completed", "La persona completó una sesión de verificación y compartió los datos pedidos (claims y proof; tras un retiro o una eliminación, shared: null y sharedReason)", session("verification_session.completed", true)},
		{"verification_session.declined", "La persona decidió no compartir: no se comparte nada", session("verification_session.declined", false)},
		{"verification_session.expired", "Nadie terminó la sesión en 24 horas", session("verification_session.expired", false)},
		{"profile.access_revoked", "La persona retiró el acceso de su plataforma a sus datos (Mi Perfil › Plataformas con acceso): la identifican sus sesiones y su referencia", revoked},
		{"user.verification_level_changed", "El nivel de verificación de una persona que llegó por su plataforma cambió", level},
		{"profile.expired", "La vigencia de la validación terminó", lifecycle("profile.expired", true)},
		{"profile.renewed", "La persona renovó su validación con una nueva verificación biométrica", lifecycle("profile.renewed", true)},
		{"profile.revoked", "Un administrador revocó la validación", lifecycle("profile.revoked", true)},
		{"profile.deleted", "La persona eliminó su cuenta: se envía a cada plataforma con la que compartía, y la identifican sus sesiones y su referencia", deleted},
		{"payment.completed", "La persona pagó su plan (tarjeta, o efectivo en OXXO cuando se acreditó)", payment},
		{"presentation.completed", "Una persona presentó su credencial a una solicitud de su plataforma (POST /api/widget/presentations)", presentation},
	}
	headers := openapi3.Parameters{
		{Value: openapi3.NewHeaderParameter("X-PerfilSeguro-Signature").WithRequired(true).
			WithDescription("t=<segundos Unix>,v1=<HMAC-SHA256 hexadecimal de \"<t>.<cuerpo>\"> con el secreto del webhook").
			WithSchema(str().WithPattern(`^t=[0-9]+(,v1=[0-9a-f]{64}){1,2}$`))},
		{Value: openapi3.NewHeaderParameter("X-PerfilSeguro-Event").WithRequired(true).WithDescription("El evento").WithSchema(str())},
		{Value: openapi3.NewHeaderParameter("X-PerfilSeguro-Delivery").WithRequired(true).
			WithDescription("Identificador de la entrega (igual en cada reintento)").WithSchema(str())},
	}
	out := map[string]*openapi3.PathItem{}
	for _, e := range events {
		ok := "Recibida: no se reintenta"
		retry := "Cualquier otra respuesta (o ninguna en 10 s) se reintenta"
		op := &openapi3.Operation{
			OperationID: "webhook_" + e.name, Summary: e.summary, Description: signatureRecipe, Tags: []string{"Widget"},
			Parameters:  headers,
			RequestBody: &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithRequired(true).WithJSONSchema(e.payload)},
			Responses:   openapi3.NewResponses(),
			Security:    &openapi3.SecurityRequirements{},
		}
		op.Responses.Delete("default")
		op.Responses.Set("200", &openapi3.ResponseRef{Value: &openapi3.Response{Description: &ok}})
		op.Responses.Set("4XX", &openapi3.ResponseRef{Value: &openapi3.Response{Description: &retry}})
		out[e.name] = &openapi3.PathItem{Post: op}
	}
	return out
}
