// Command bare is the baseline of `make bench-verify`: plain net/http and one prepared, indexed
// SELECT on the users table per request, JSON out. It does what the cheapest possible public
// verification server would do, so the real API's figures have something to be compared with.
//
//	DATABASE_URL=postgres://… ADDR=127.0.0.1:9000 bare
package main

import (
	"database/sql"
	"encoding/json"
	"log"
	"net/http"
	"os"
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
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	log.Fatal(http.ListenAndServe(os.Getenv("ADDR"), mux))
}
