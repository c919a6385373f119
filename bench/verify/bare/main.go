// Command bare is the baseline of `make bench-verify`: plain net/http and one prepared, indexed
// SELECT on the users table per request, JSON out. It does what the cheapest possible public
// verification server would do, so the real API's figures have something to be compared with.
// For the consultations benchmark it also serves a person's lookup history the cheapest way:
// one prepared session lookup and one prepared keyset page per request; and a partner's
// verification session by id with one prepared SELECT (make bench-sessions).
//
//	DATABASE_URL=postgres://… ADDR=127.0.0.1:9000 bare
package main

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"log"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	_ "github.com/lib/pq" // driver
)

type profile struct {
	ID     int64      `json:"id"`
	Nombre string     `json:"nombre"`
	Level  int        `json:"nivel_verificacion"`
	Fecha  *time.Time `json:"fecha_validacion"`
	Email  *string    `json:"email"`
}

func main() {
	if os.Getenv("FIXED_BODY") != "" {
		serveFixedBody()
		return
	}
	db, err := sql.Open("postgres", os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	db.SetMaxOpenConns(20) // as the API's pool (postgres.Open)
	db.SetMaxIdleConns(20)
	stmt, err := db.Prepare(`SELECT id, nombre, verification_level, fecha_validacion, email FROM users WHERE id_validado = $1`)
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/verify/{profileId}", func(w http.ResponseWriter, r *http.Request) {
		var p profile
		err := stmt.QueryRowContext(r.Context(), r.PathValue("profileId")).Scan(&p.ID, &p.Nombre, &p.Level, &p.Fecha, &p.Email)
		if err != nil {
			http.Error(w, `{"message":"not found"}`, http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(p)
	})
	session, err := db.Prepare(`SELECT user_id FROM user_sessions WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > now()`)
	if err != nil {
		log.Fatal(err)
	}
	page, err := db.Prepare(`SELECT l.id, l.scanned_at, l.access_type, k.partner_name FROM verification_logs l
		LEFT JOIN api_keys k ON k.id = l.partner_id
		WHERE l.user_id = $1 AND l.granted AND ($2::timestamptz IS NULL OR (l.scanned_at, l.id) < ($2, $3))
		ORDER BY l.scanned_at DESC, l.id DESC LIMIT 21`)
	if err != nil {
		log.Fatal(err)
	}
	mux.HandleFunc("GET /api/users/{id}/consultations", func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie("ps_session")
		if err != nil {
			http.Error(w, `{"message":"signed out"}`, http.StatusUnauthorized)
			return
		}
		sum := sha256.Sum256([]byte(c.Value))
		var me int64
		if err := session.QueryRowContext(r.Context(), hex.EncodeToString(sum[:])).Scan(&me); err != nil || strconv.FormatInt(me, 10) != r.PathValue("id") {
			http.Error(w, `{"message":"forbidden"}`, http.StatusForbidden)
			return
		}
		var before *time.Time
		var beforeID int64
		if micros, id, ok := strings.Cut(r.URL.Query().Get("before"), "_"); ok {
			us, _ := strconv.ParseInt(micros, 10, 64)
			beforeID, _ = strconv.ParseInt(id, 10, 64)
			t := time.UnixMicro(us)
			before = &t
		}
		rows, err := page.QueryContext(r.Context(), me, before, beforeID)
		if err != nil {
			http.Error(w, `{"message":"error"}`, http.StatusInternalServerError)
			return
		}
		defer rows.Close()
		type item struct {
			At      time.Time `json:"at"`
			Channel string    `json:"channel"`
			Partner *string   `json:"partnerName"`
		}
		items := []item{}
		for rows.Next() {
			var it item
			var id int64
			if err := rows.Scan(&id, &it.At, &it.Channel, &it.Partner); err != nil {
				http.Error(w, `{"message":"error"}`, http.StatusInternalServerError)
				return
			}
			items = append(items, it)
		}
		if len(items) > 20 {
			items = items[:20]
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"items": items})
	})
	// The partner API's session read, the cheapest way: one prepared SELECT by id, no key check.
	sessionRow, err := db.Prepare(`SELECT id, status, reference, livemode, required_level, claims::text, COALESCE(shared::text, 'null'),
		created_at, expires_at FROM partner_sessions WHERE id = $1`)
	if err != nil {
		log.Fatal(err)
	}
	mux.HandleFunc("GET /api/partner/v1/verification-sessions/{id}", func(w http.ResponseWriter, r *http.Request) {
		var v struct {
			ID            string          `json:"id"`
			Status        string          `json:"status"`
			Reference     string          `json:"reference"`
			Livemode      bool            `json:"livemode"`
			RequiredLevel int             `json:"requiredLevel"`
			Claims        string          `json:"claims"`
			Shared        json.RawMessage `json:"shared"`
			CreatedAt     time.Time       `json:"createdAt"`
			ExpiresAt     time.Time       `json:"expiresAt"`
		}
		var shared string
		err := sessionRow.QueryRowContext(r.Context(), r.PathValue("id")).Scan(&v.ID, &v.Status, &v.Reference, &v.Livemode,
			&v.RequiredLevel, &v.Claims, &shared, &v.CreatedAt, &v.ExpiresAt)
		if err != nil {
			http.Error(w, `{"message":"not found"}`, http.StatusNotFound)
			return
		}
		v.Shared = json.RawMessage(shared)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(v)
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	log.Fatal(http.ListenAndServe(os.Getenv("ADDR"), mux))
}

// serveFixedBody is the HTTP-only limit of `make bench-verify`: net/http answering every request
// with the same small JSON body, no database, no work (FIXED_BODY=1).
func serveFixedBody() {
	body := []byte(`{"id":"PS-2024-0917-42","nombre":"María Fernanda López","verificationLevel":3,"valid":true}` + "\n")
	mux := http.NewServeMux()
	mux.HandleFunc("GET /", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	})
	log.Fatal(http.ListenAndServe(os.Getenv("ADDR"), mux))
}
