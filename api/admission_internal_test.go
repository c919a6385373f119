package api

import (
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/perfilseguro/perfilseguro/admission"
)

func TestRequestPriorities(t *testing.T) {
	for _, c := range []struct {
		method, path string
		want         admission.Priority
	}{
		{"GET", "/healthz", admission.Exempt},
		{"GET", "/readyz", admission.Exempt},
		{"POST", "/api/register", admission.Low},
		{"POST", "/api/login", admission.Low},
		{"POST", "/api/widget/login", admission.Low},
		{"POST", "/api/invitations/accept", admission.Low},
		{"POST", "/api/send-email-verification-link", admission.Low},
		{"POST", "/api/users/12/contact-change", admission.Low},
		{"POST", "/api/users/12/confirmation-code", admission.Low},
		{"POST", "/api/users/12/credential-offers", admission.Low},
		{"GET", "/api/widget/presentations/7f1c", admission.High},
		{"POST", "/api/widget/presentations", admission.Normal},
		{"GET", "/api/verify/PS-1234-5678-90", admission.High},
		{"GET", "/api/qr/PS-1234-5678-90.png", admission.High},
		{"GET", "/api/widget/verify", admission.High},
		{"GET", "/api/users/12/verification-status", admission.High},
		{"GET", "/api/start-verification/abc", admission.High},
		{"GET", "/api/payments/status", admission.High},
		{"GET", "/api/auth/status", admission.High},
		{"GET", "/api/credentials/status/1", admission.High},
		{"POST", "/api/webhooks/biometric", admission.High},
		{"POST", "/api/webhooks/payments", admission.High},
		{"GET", passkitPrefix + "/passes/pass.mx.perfilseguro/abc", admission.High},
		{"POST", passkitPrefix + "/log", admission.High},
		{"POST", "/api/verify-code", admission.Normal},
		{"GET", "/api/users/12", admission.Normal},
		{"POST", "/api/users/12/contact-change/verify", admission.Normal},
		{"GET", "/", admission.Normal},
		{"GET", "/assets/index.js", admission.Normal},
		{"POST", "/api/verify/PS-1234-5678-90", admission.Normal},
	} {
		r := httptest.NewRequest(c.method, c.path, nil)
		assert.Equal(t, c.want, requestPriority(r), "%s %s", c.method, c.path)
	}
}

func TestRequestsThatWaitOnPurposeAreNoLatencySample(t *testing.T) {
	assert.True(t, waitsOnPurpose(httptest.NewRequest("POST", "/api/start-verification", nil)))
	assert.True(t, waitsOnPurpose(httptest.NewRequest("POST", "/api/payments/checkout", nil)))
	assert.True(t, waitsOnPurpose(httptest.NewRequest("POST", oid4vciCredentialPath, nil)))
	assert.True(t, waitsOnPurpose(httptest.NewRequest("GET", "/api/data-export?token=x", nil)))
	assert.True(t, waitsOnPurpose(httptest.NewRequest("GET", monitoringPath+"/api/queues", nil)))
	assert.False(t, waitsOnPurpose(httptest.NewRequest("GET", "/api/start-verification/abc", nil)))
	assert.False(t, waitsOnPurpose(httptest.NewRequest("POST", "/api/register", nil)))
}
