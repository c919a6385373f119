// Command barehook is the baseline of BenchmarkPaymentWebhookBurst: plain net/http that checks
// Stripe's signature with stripe-go and stores the raw event once by its id (one INSERT … ON
// CONFLICT DO NOTHING), and nothing else. It is the cheapest correct webhook receiver, so the
// real API's figures have something to be compared with.
//
//	DATABASE_URL=postgres://… ADDR=127.0.0.1:9000 SECRET=whsec_… barehook
package main

import (
	"database/sql"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"os"

	_ "github.com/lib/pq" // driver
	"github.com/stripe/stripe-go/v84/webhook"
)

func main() {
	db, err := sql.Open("postgres", os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	db.SetMaxOpenConns(20) // as the API's pool (postgres.Open)
	db.SetMaxIdleConns(20)
	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS bare_events (event_id text PRIMARY KEY, body bytea NOT NULL)`); err != nil {
		log.Fatal(err)
	}
	stmt, err := db.Prepare(`INSERT INTO bare_events (event_id, body) VALUES ($1, $2) ON CONFLICT DO NOTHING`)
	if err != nil {
		log.Fatal(err)
	}
	secret := os.Getenv("SECRET")
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/webhooks/payments", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 256<<10))
		if err != nil {
			http.Error(w, `{"message":"too large"}`, http.StatusRequestEntityTooLarge)
			return
		}
		ev, err := webhook.ConstructEventWithOptions(body, r.Header.Get("Stripe-Signature"), secret,
			webhook.ConstructEventOptions{IgnoreAPIVersionMismatch: true})
		if err != nil {
			http.Error(w, `{"message":"bad signature"}`, http.StatusBadRequest)
			return
		}
		if _, err := stmt.ExecContext(r.Context(), ev.ID, body); err != nil {
			http.Error(w, `{"message":"store"}`, http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]bool{"received": true})
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	log.Fatal(http.ListenAndServe(os.Getenv("ADDR"), mux))
}
