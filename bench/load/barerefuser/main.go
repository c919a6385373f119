// Command barerefuser is the refusals' baseline in `make bench-overload`: plain net/http that
// answers every request with the API's 503 ("Hay mucha demanda…") and does nothing else. Flooded
// by bench/openloop on the same cores, it shows what a refusal costs the machine at the least
// (the generator's new connection, the kernel's handshake, the cheapest server's answer) and how
// fast one comes back when nothing else runs.
//
//	ADDR=127.0.0.1:9000 barerefuser
package main

import (
	"log"
	"net/http"
	"os"
)

const body = `{"message":"Hay mucha demanda en este momento. Intenta nuevamente en unos segundos."}` + "\n"

func main() {
	refuse := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "application/json; charset=utf-8")
		h.Set("Cache-Control", "no-store")
		h.Set("Retry-After", "5")
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte(body))
	})
	log.Fatal(http.ListenAndServe(os.Getenv("ADDR"), refuse))
}
