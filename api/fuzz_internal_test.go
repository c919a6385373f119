package api

import (
	"bytes"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

func jsonRequest(body []byte) *http.Request {
	r, _ := http.NewRequest("POST", "/", bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	return r
}

var mxPhone = regexp.MustCompile(`^\+52[0-9]{10}$`)

// FuzzRegisterDecoder: any body either fails with a domain/HTTP error or yields a registration
// whose fields satisfy every rule.
func FuzzRegisterDecoder(f *testing.F) {
	f.Add([]byte(`{"fullName":"Ana López","email":"ana@example.com","phoneNumber":"55 1234 5678"}`))
	f.Add([]byte(`{"fullName":"<script>alert(1)</script>","email":"a@b.co","phoneNumber":"+5215512345678"}`))
	f.Add([]byte(`{"fullName":"x'; DROP TABLE users;--","email":"x@y.z","phoneNumber":"0445512345678"}`))
	f.Add([]byte(`[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := decodeJSON[RegisterRequest](jsonRequest(body))
		if err != nil {
			if toAPIError(err).Status >= 500 {
				t.Fatalf("decoder error is a server error: %v", err)
			}
			return
		}
		if err := req.validate(); err != nil {
			if perfilseguro.ErrorCode(err) != perfilseguro.EINVALID {
				t.Fatalf("validation failed with %v", err)
			}
			return
		}
		if !mxPhone.MatchString(req.PhoneNumber) || !perfilseguro.ValidEmail(req.Email) ||
			utf8.RuneCountInString(req.FullName) < 3 || req.FullName != strings.TrimSpace(req.FullName) {
			t.Fatalf("accepted an invalid registration: %+v", req)
		}
	})
}

// FuzzLoginDecoder: accepted logins have at least one normalized contact.
func FuzzLoginDecoder(f *testing.F) {
	f.Add([]byte(`{"email":" Ana@Example.com "}`))
	f.Add([]byte(`{"phoneNumber":"+34 612 34 56 78"}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := decodeJSON[LoginRequest](jsonRequest(body))
		if err != nil {
			return
		}
		if err := req.validate(); err != nil {
			if perfilseguro.ErrorCode(err) != perfilseguro.EINVALID {
				t.Fatalf("validation failed with %v", err)
			}
			return
		}
		if req.Email == "" && req.PhoneNumber == "" {
			t.Fatal("accepted a login with no contact")
		}
		if req.Email != "" && (req.Email != strings.ToLower(req.Email) || !perfilseguro.ValidEmail(req.Email)) {
			t.Fatalf("accepted e-mail %q", req.Email)
		}
		if req.PhoneNumber != "" && !strings.HasPrefix(req.PhoneNumber, "+") {
			t.Fatalf("accepted phone %q", req.PhoneNumber)
		}
	})
}

// FuzzVerifyCodeDecoder: only six ASCII digits pass the format check; ids never go negative.
func FuzzVerifyCodeDecoder(f *testing.F) {
	f.Add([]byte(`{"userId":"12","code":"123456"}`))
	f.Add([]byte(`{"userId":12,"code":"１２３４５６"}`))
	f.Add([]byte(`{"sessionToken":"abc","code":"12345"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := decodeJSON[VerifyCodeRequest](jsonRequest(body))
		if err != nil {
			return
		}
		if req.UserID < 0 {
			t.Fatalf("negative user id %d", req.UserID)
		}
		code := strings.TrimSpace(req.Code)
		if validCodeFormat(code) && !regexp.MustCompile(`^[0-9]{6}$`).MatchString(code) {
			t.Fatalf("accepted code %q", code)
		}
	})
}

// FuzzJSONDepth: the depth counter never under-counts real nesting.
func FuzzJSONDepth(f *testing.F) {
	f.Add([]byte(`{"a":[{"b":"[[[["}]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		d := depth(raw)
		if d < 0 || d > len(raw) {
			t.Fatalf("depth %d for %d bytes", d, len(raw))
		}
	})
}
