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

// decodeAll runs every request decoder of the API on one body.
func decodeAll(body []byte) []error {
	_, e1 := decodeJSON[AcceptInvitationRequest](jsonRequest(body))
	_, e2 := decodeJSON[AdminLoginRequest](jsonRequest(body))
	_, e3 := decodeJSON[AdminUserRequest](jsonRequest(body))
	_, e4 := decodeJSON[CancelInvitationRequest](jsonRequest(body))
	_, e5 := decodeJSON[CreateInvitationRequest](jsonRequest(body))
	_, e6 := decodeJSON[LevelsUserRequest](jsonRequest(body))
	_, e7 := decodeJSON[LoginRequest](jsonRequest(body))
	_, e8 := decodeJSON[PartnerRequest](jsonRequest(body))
	_, e9 := decodeJSON[RegisterRequest](jsonRequest(body))
	_, e10 := decodeJSON[VerifyCodeRequest](jsonRequest(body))
	_, e11 := decodeJSON[WidgetVerifyCodeRequest](jsonRequest(body))
	return []error{e1, e2, e3, e4, e5, e6, e7, e8, e9, e10, e11}
}

// FuzzEveryDecoder: no body makes any decoder panic or answer anything but a 4xx.
func FuzzEveryDecoder(f *testing.F) {
	f.Add([]byte(`{"invitationCode":"ABCD1234","accepterData":{"nombre":"Ana","phone_number":"5512345678"}}`))
	f.Add([]byte(`{"nombre":"Ana","email":"","origen":"Otro","vigencia":5}`))
	f.Add([]byte(`{"partnerName":"CasaLista","domain":"https://casalista.mx","permissions":["widget_auth"]}`))
	f.Add([]byte(`{"inviteeEmail":"a@b.co","inviteeName":"Al","type":"client","expiresInDays":7}`))
	f.Add([]byte(`{"password":"x"}`))
	f.Add([]byte("\xff\xfe{"))
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, err := range decodeAll(body) {
			if err == nil {
				continue
			}
			if st := toAPIError(err).Status; st < 400 || st >= 500 {
				t.Fatalf("decoder answered %d for %q: %v", st, body, err)
			}
		}
	})
}
