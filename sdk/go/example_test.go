package perfilseguro_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	perfilseguro "github.com/perfilseguro/perfilseguro/sdk/go"
)

// fakePerfilSeguro stands in for https://perfilseguro.mx so that the examples run anywhere.
func fakePerfilSeguro() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Authorization") != "Bearer sk_test_ejemplo" {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"message":"Llave secreta no válida, revocada o de otro modo."}`)
			return
		}
		switch r.Method + " " + r.URL.Path {
		case "POST /api/partner/v1/verification-sessions":
			w.WriteHeader(http.StatusCreated)
			io.WriteString(w, `{"id":"vs_ejemplo","clientSecret":"vs_ejemplo_secret_x","url":"https://perfilseguro.mx/verificar/vs_ejemplo_secret_x",`+
				`"expiresAt":"2026-01-02T10:00:00Z","livemode":false}`)
		case "GET /api/partner/v1/verification-sessions/vs_ejemplo":
			io.WriteString(w, `{"id":"vs_ejemplo","status":"completed","reference":"pedido-123","livemode":false,"requiredLevel":3,`+
				`"claims":["name","validUntil"],"shared":{"name":"Ana López","validUntil":"2027-01-31"},"proof":"eyJ…",`+
				`"createdAt":"2026-01-01T10:00:00Z","expiresAt":"2026-01-02T10:00:00Z","endedAt":"2026-01-01T10:04:00Z"}`)
		default:
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"message":"No encontrado"}`)
		}
	}))
}

// Open a verification session, then read its result.
func Example() {
	api := fakePerfilSeguro()
	defer api.Close()
	ctx := context.Background()

	// In production: perfilseguro.New("", os.Getenv("PERFILSEGURO_SECRET_KEY")).
	ps, err := perfilseguro.New(api.URL, "sk_test_ejemplo")
	if err != nil {
		log.Fatal(err)
	}
	created, err := ps.CreateSession(ctx, perfilseguro.NewSession{
		Reference:     "pedido-123",
		RequiredLevel: perfilseguro.LevelBiometric,
		Claims:        []perfilseguro.NewSessionClaims{perfilseguro.ClaimName, perfilseguro.ClaimValidUntil},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("sesión:", created.ID)
	fmt.Println("para la página:", created.ClientSecret)

	// Later (or on the verification_session.completed webhook):
	s, err := ps.GetSession(ctx, created.ID)
	if err != nil {
		log.Fatal(err)
	}
	if s.Status == perfilseguro.SessionViewStatusCompleted {
		fmt.Println("compartió:", s.Shared["name"], s.Shared["validUntil"])
	}

	// Errors from Perfil Seguro carry the HTTP status and a message in Spanish.
	_, err = ps.GetSession(ctx, "vs_otra")
	var apiErr *perfilseguro.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.Status, apiErr.Message)
	}
	// Output:
	// sesión: vs_ejemplo
	// para la página: vs_ejemplo_secret_x
	// compartió: Ana López 2027-01-31
	// 404 No encontrado
}

// A webhook receiver: check the signature on the raw body before trusting anything in it.
func ExampleConstructEvent() {
	const secret = "whsec_ejemplo" // shown once when the webhook is configured

	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			http.Error(w, "no se pudo leer", http.StatusBadRequest)
			return
		}
		ev, err := perfilseguro.ConstructEvent(secret, r.Header.Get(perfilseguro.SignatureHeader), body)
		if err != nil {
			http.Error(w, "firma no válida", http.StatusBadRequest)
			return
		}
		if s, err := ev.Session(); err == nil && s.Status == perfilseguro.SessionViewStatusCompleted {
			fmt.Println(ev.Event, s.ID, s.Claims["name"])
		}
		w.WriteHeader(http.StatusNoContent) // 2xx: Perfil Seguro does not retry
	})

	// What Perfil Seguro would send:
	body := `{"event":"verification_session.completed","id":"vs_ejemplo","reference":"pedido-123","status":"completed",` +
		`"livemode":false,"requiredLevel":3,"createdAt":"2026-01-01T10:00:00Z","claims":{"name":"Ana López"},"proof":"eyJ…"}`
	req := httptest.NewRequest(http.MethodPost, "/webhooks/perfilseguro", strings.NewReader(body))
	req.Header.Set(perfilseguro.SignatureHeader, perfilseguro.SignWebhook(secret, time.Now(), []byte(body)))
	rec := httptest.NewRecorder()
	handler.ServeHTTP(rec, req)
	fmt.Println(rec.Code)

	// The same body signed with another secret is turned away.
	req = httptest.NewRequest(http.MethodPost, "/webhooks/perfilseguro", strings.NewReader(body))
	req.Header.Set(perfilseguro.SignatureHeader, perfilseguro.SignWebhook("whsec_otro", time.Now(), []byte(body)))
	rec = httptest.NewRecorder()
	handler.ServeHTTP(rec, req)
	fmt.Println(rec.Code)
	// Output:
	// verification_session.completed vs_ejemplo Ana López
	// 204
	// 400
}

// VerifyProof checks the signed proof of a completed session against the published keys.
func ExampleVerifyProof() {
	ctx := context.Background()
	var proof string // SessionView.Proof or SessionEvent.Proof
	claims, err := perfilseguro.VerifyProof(ctx, proof, "https://perfilseguro.mx")
	if err != nil {
		fmt.Println("prueba rechazada")
		return
	}
	// Bind it to your session and your publishable key before trusting it.
	if claims["sub"] != "vs_…" || claims["aud"] != "pk_live_…" {
		fmt.Println("prueba de otra sesión")
	}
	// Output: prueba rechazada
}
