package main

import (
	"crypto/sha512"
	"encoding/base64"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

// The demo pins the drop-in with the hash /integration prints, and that hash is the file's.
func TestThePagePinsTheDropInWithTheIntegrationPagesHash(t *testing.T) {
	file, err := os.ReadFile("../../web/public/widget/v1.js")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha512.Sum384(file)
	if want := "sha384-" + base64.StdEncoding.EncodeToString(sum[:]); dropInIntegrity != want {
		t.Fatalf("dropInIntegrity = %s, web/public/widget/v1.js hashes to %s", dropInIntegrity, want)
	}
	samples, err := os.ReadFile("../../web/src/features/integration/session-samples.ts")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(samples), "DROP_IN_INTEGRITY = '"+dropInIntegrity+"'") {
		t.Fatalf("session-samples.ts's DROP_IN_INTEGRITY is not %s", dropInIntegrity)
	}

	d := &demo{api: "http://127.0.0.1:8080", publishable: "pk_test_x"}
	rec := httptest.NewRecorder()
	d.page(rec, httptest.NewRequest("GET", "/", nil))
	want := `<script src="http://127.0.0.1:8080/widget/v1.js" integrity="` + dropInIntegrity + `" crossorigin="anonymous"></script>`
	if !strings.Contains(rec.Body.String(), want) {
		t.Fatalf("the page does not load the drop-in as %s:\n%s", want, rec.Body.String())
	}
}
