package api_test

import (
	"bytes"
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/provider/devsim"
	"github.com/perfilseguro/perfilseguro/provider/stripe"
)

// A validating proxy in front of the API checks the providers' webhook bodies against the
// document: the bodies Didit and Stripe send (as the local stand-ins reproduce them) pass, and a
// body without what the server reads does not.
func TestOpenAPIDocumentsTheProviderWebhookBodies(t *testing.T) {
	t.Parallel()
	e := setup(t)
	_, spec := e.do(t, "GET", "/api/openapi.json", "", "")
	doc, err := openapi3.NewLoader().LoadFromData([]byte(spec))
	require.NoError(t, err)
	doc.Servers = openapi3.Servers{{URL: "/"}}
	router, err := gorillamux.NewRouter(doc)
	require.NoError(t, err)
	validate := func(path, header string, body []byte) error {
		r, err := http.NewRequest(http.MethodPost, path, bytes.NewReader(body))
		require.NoError(t, err)
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set(header, "t=1,v1=00")
		route, params, err := router.FindRoute(r)
		require.NoError(t, err, path)
		return openapi3filter.ValidateRequest(context.Background(), &openapi3filter.RequestValidationInput{Request: r,
			PathParams: params, Route: route, Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}})
	}

	face, document := 0.97, "Approved"
	now := time.Now()
	session := devsim.BiometricSession{SessionID: "3f2c1d9e-8a7b-4c6d-9e0f-1a2b3c4d5e6f", VendorData: "7", Status: "Approved",
		FaceMatch: &face, Liveness: &face, Document: &document, CreatedAt: now}
	require.NoError(t, validate("/api/webhooks/biometric", "X-Signature", session.WebhookBody(now)))
	require.NoError(t, validate("/api/webhooks/biometric", "X-Signature",
		[]byte(`{"session_id":"s1","status":"In Review","webhook_type":"status.updated","vendor_data":null,"created_at":"1732480000"}`)))
	require.Error(t, validate("/api/webhooks/biometric", "X-Signature", []byte(`{"status":"Approved"}`)), "no session_id")
	require.Error(t, validate("/api/webhooks/biometric", "X-Signature", []byte(`{"session_id":7}`)))

	for _, body := range [][]byte{
		stripe.EventJSON("evt_1", "checkout.session.completed", now, []byte(`{"id":"cs_test_1","object":"checkout.session","payment_status":"paid"}`)),
		stripe.EventJSON("evt_2", "charge.refunded", now, []byte(`{"id":"ch_1","object":"charge","payment_intent":"pi_1","amount_refunded":29900,"refunded":true}`)),
	} {
		require.NoError(t, validate("/api/webhooks/payments", "Stripe-Signature", body), string(body))
	}
	require.Error(t, validate("/api/webhooks/payments", "Stripe-Signature", []byte(`{"id":"evt_3","type":"checkout.session.expired"}`)), "no data")
	require.Error(t, validate("/api/webhooks/payments", "Stripe-Signature", []byte(`{"id":"evt_4","type":"x","data":{"object":{}}}`)), "no object id")
}
