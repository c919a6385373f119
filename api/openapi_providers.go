package api

import "github.com/getkin/kin-openapi/openapi3"

// The bodies our outside providers POST to us, as the document describes them: what a validating
// proxy in front of the API checks. Only the fields the server reads are required; the rest of
// each provider's payload is allowed as it is (the providers add fields without notice), and the
// raw body is what the signature covers and what is stored.

// typed is a schema of one or more JSON types (3.1 type lists) with a description.
func typed(desc string, types ...string) *openapi3.SchemaRef {
	t := openapi3.Types(types)
	return &openapi3.SchemaRef{Value: &openapi3.Schema{Type: &t, Description: desc}}
}

// objectOf is an object schema with the given properties and required names; other properties
// are allowed.
func objectOf(desc string, required []string, props openapi3.Schemas) *openapi3.Schema {
	s := openapi3.NewObjectSchema()
	s.Description, s.Properties, s.Required = desc, props, required
	return s
}

// providerBody is a required JSON request body with schema s.
func providerBody(desc string, s *openapi3.Schema) *openapi3.RequestBodyRef {
	return &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithRequired(true).WithDescription(desc).
		WithSchema(s, []string{"application/json"})}
}

// biometricWebhookBody is Didit's session webhook (status.updated, data.updated), as
// provider/didit.ParseWebhook reads it; the decision object, when present, is stored with the
// raw body and read by the processing job.
func biometricWebhookBody() *openapi3.RequestBodyRef {
	return providerBody("Evento de sesión del proveedor biométrico (Didit), tal como lo envía; la firma cubre el cuerpo exacto",
		objectOf("Webhook de sesión de Didit", []string{"session_id"}, openapi3.Schemas{
			"session_id": typed("Identificador de la sesión de verificación", "string"),
			"status": typed("Estado de la sesión: Not Started, In Progress, Approved, Declined, In Review, Resubmitted, "+
				"Expired o Abandoned", "string"),
			"webhook_type": typed("Tipo de evento, p. ej. status.updated o data.updated", "string"),
			"vendor_data":  typed("Nuestro identificador de usuario, enviado al crear la sesión", "string", "null"),
			"created_at":   typed("Momento del evento (segundos Unix, número o texto)", "integer", "string"),
			"timestamp":    typed("Momento del envío (segundos Unix, número o texto)", "integer", "string"),
			"decision": {Value: objectOf("Decisión completa de la sesión (puntajes de rostro, documento y prueba de vida), "+
				"si el proveedor la incluye", nil, nil)},
		}))
}

// paymentWebhookBody is a Stripe event (checkout.session.completed, …async_payment_succeeded,
// …async_payment_failed, …expired, charge.refunded), as provider/stripe.VerifyWebhook reads it.
func paymentWebhookBody() *openapi3.RequestBodyRef {
	return providerBody("Evento de Stripe, tal como lo envía; la firma (Stripe-Signature) cubre el cuerpo exacto",
		objectOf("Evento de Stripe", []string{"id", "type", "data"}, openapi3.Schemas{
			"id":     typed("Identificador del evento (evt_…): una repetición trae el mismo", "string"),
			"object": {Value: openapi3.NewStringSchema().WithEnum("event")},
			"type": typed("checkout.session.completed, checkout.session.async_payment_succeeded, "+
				"checkout.session.async_payment_failed, checkout.session.expired o charge.refunded", "string"),
			"api_version":      typed("Versión de la API de Stripe del evento", "string", "null"),
			"created":          typed("Momento del evento (segundos Unix)", "integer"),
			"livemode":         typed("Evento de producción (true) o de pruebas", "boolean"),
			"pending_webhooks": typed("Entregas pendientes del evento", "integer"),
			"data": {Value: objectOf("El objeto del evento", []string{"object"}, openapi3.Schemas{
				"object": {Value: objectOf("Una checkout.session o un charge (se lee su id y, del charge, payment_intent y el reembolso)",
					[]string{"id"}, openapi3.Schemas{"id": typed("Identificador del objeto (cs_… o ch_…)", "string")})},
			})},
		}))
}
