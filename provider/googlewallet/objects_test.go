package googlewallet_test

import (
	"context"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/googlewallet"
)

// fakeGoogle plays Google's token endpoint and the Wallet REST API, recording what it was sent
// so the test goroutine can check the wire format.
type fakeGoogle struct {
	srv *httptest.Server

	mu          sync.Mutex
	tokenStatus int    // answer of the token endpoint; 200 issues ya29.test
	tokenBody   string // body sent with a non-200 token answer
	patchStatus int    // answer to a PATCH; 200 when zero
	patchBody   string // body sent with the PATCH answer
	tokenCalls  []tokenCall
	patches     []patchCall
}

type tokenCall struct {
	method, contentType string
	form                url.Values
}

type patchCall struct {
	method, path, auth, contentType string
	body                            []byte
}

func newFakeGoogle(t *testing.T) *fakeGoogle {
	t.Helper()
	f := &fakeGoogle{tokenStatus: http.StatusOK, patchStatus: http.StatusOK, patchBody: "{}"}
	mux := http.NewServeMux()
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		f.mu.Lock()
		defer f.mu.Unlock()
		f.tokenCalls = append(f.tokenCalls, tokenCall{r.Method, r.Header.Get("Content-Type"), r.PostForm})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(f.tokenStatus)
		if f.tokenStatus != http.StatusOK {
			_, _ = io.WriteString(w, f.tokenBody)
			return
		}
		_, _ = io.WriteString(w, `{"access_token":"ya29.test","token_type":"Bearer","expires_in":3600}`)
	})
	mux.HandleFunc("/walletobjects/v1/genericObject/", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		defer f.mu.Unlock()
		f.patches = append(f.patches, patchCall{r.Method, r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("Content-Type"), body})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(f.patchStatus)
		_, _ = io.WriteString(w, f.patchBody)
	})
	// TLS: only srv.Client() trusts the server, so every call proves the Updater used HTTPClient.
	f.srv = httptest.NewTLSServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeGoogle) updater(t *testing.T, key *rsa.PrivateKey) *googlewallet.Updater {
	t.Helper()
	u, err := googlewallet.NewUpdater(config(key), googlewallet.UpdaterOptions{
		BaseURL: f.srv.URL, TokenURL: f.srv.URL + "/token", HTTPClient: f.srv.Client(),
	})
	require.NoError(t, err)
	return u
}

// answer sets what the token endpoint (if tokenStatus is not zero) and the API answer from now on.
func (f *fakeGoogle) answer(tokenStatus int, tokenBody string, patchStatus int, patchBody string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if tokenStatus != 0 {
		f.tokenStatus, f.tokenBody = tokenStatus, tokenBody
	}
	if patchStatus != 0 {
		f.patchStatus, f.patchBody = patchStatus, patchBody
	}
}

func (f *fakeGoogle) calls() ([]tokenCall, []patchCall) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]tokenCall(nil), f.tokenCalls...), append([]patchCall(nil), f.patches...)
}

// patchedObject mirrors the GenericObject fields the test checks.
type patchedObject struct {
	ID                string                                        `json:"id"`
	ClassID           string                                        `json:"classId"`
	State             string                                        `json:"state"`
	Header            struct{ DefaultValue struct{ Value string } } `json:"header"`
	TextModulesData   []struct{ ID, Header, Body string }           `json:"textModulesData"`
	Barcode           struct{ Value string }                        `json:"barcode"`
	ValidTimeInterval struct {
		End struct{ Date string } `json:"end"`
	} `json:"validTimeInterval"`
}

func TestUpdatePassPatchesTheSavedObject(t *testing.T) {
	t.Parallel()
	key, _ := setup(t)
	f := newFakeGoogle(t)
	u := f.updater(t, key)

	cases := []struct{ status, state, estado string }{
		{perfilseguro.PassValid, "ACTIVE", ""},
		{perfilseguro.PassExpired, "EXPIRED", "Expirado"},
		{perfilseguro.PassRevoked, "INACTIVE", "Revocado"},
	}
	for _, c := range cases {
		p := samplePass
		p.Status = c.status
		require.NoError(t, u.UpdatePass(context.Background(), p))
	}

	tokens, patches := f.calls()
	require.Len(t, tokens, 1, "the access token is reused across calls")
	tok := tokens[0]
	require.Equal(t, http.MethodPost, tok.method)
	require.Equal(t, "application/x-www-form-urlencoded", tok.contentType)
	require.Equal(t, "urn:ietf:params:oauth:grant-type:jwt-bearer", tok.form.Get("grant_type"))
	var claims struct {
		Scope string `json:"scope"`
		jwt.RegisteredClaims
	}
	_, err := jwt.ParseWithClaims(tok.form.Get("assertion"), &claims,
		func(*jwt.Token) (any, error) { return &key.PublicKey, nil },
		jwt.WithValidMethods([]string{"RS256"}), jwt.WithIssuedAt(), jwt.WithExpirationRequired(),
		jwt.WithIssuer("wallet@perfil-seguro.iam.gserviceaccount.com"), jwt.WithAudience(f.srv.URL+"/token"))
	require.NoError(t, err)
	require.Equal(t, googlewallet.WalletScope, claims.Scope)
	require.True(t, claims.ExpiresAt.After(claims.IssuedAt.Time))

	require.Len(t, patches, len(cases))
	for i, c := range cases {
		call := patches[i]
		require.Equal(t, http.MethodPatch, call.method)
		require.Equal(t, "/walletobjects/v1/genericObject/3388000000012345678.PS-1234-5678-90", call.path)
		require.Equal(t, "Bearer ya29.test", call.auth)
		require.Equal(t, "application/json", call.contentType)

		var o patchedObject
		require.NoError(t, json.Unmarshal(call.body, &o))
		require.Equal(t, "3388000000012345678.PS-1234-5678-90", o.ID)
		require.Equal(t, "3388000000012345678.perfil_seguro", o.ClassID)
		require.Equal(t, c.state, o.State)
		require.Equal(t, "María José Núñez", o.Header.DefaultValue.Value)
		require.Equal(t, samplePass.VerifyURL, o.Barcode.Value)
		require.Equal(t, "2026-03-07T00:00:00Z", o.ValidTimeInterval.End.Date)
		require.Len(t, o.TextModulesData, 3)
		if c.estado != "" {
			require.Equal(t, "Estado", o.TextModulesData[2].Header)
			require.Equal(t, c.estado, o.TextModulesData[2].Body)
		} else {
			require.Equal(t, "Vigente hasta", o.TextModulesData[2].Header)
		}
	}
}

func TestUpdatePassSendsWhatASaveLinkCarries(t *testing.T) {
	t.Parallel()
	key, _ := setup(t)
	f := newFakeGoogle(t)
	p := samplePass
	p.Status = perfilseguro.PassRevoked
	require.NoError(t, f.updater(t, key).UpdatePass(context.Background(), p))

	link, err := googlewallet.New(config(key)).SaveURL(p)
	require.NoError(t, err)
	var saved struct {
		Payload struct {
			GenericObjects []json.RawMessage `json:"genericObjects"`
		} `json:"payload"`
		jwt.RegisteredClaims
	}
	_, _, err = jwt.NewParser().ParseUnverified(strings.TrimPrefix(link, googlewallet.SaveURLPrefix), &saved)
	require.NoError(t, err)
	_, patches := f.calls()
	require.Len(t, patches, 1)
	require.JSONEq(t, string(saved.Payload.GenericObjects[0]), string(patches[0].body))
}

func TestUpdatePassClassifiesAnswers(t *testing.T) {
	t.Parallel()
	key, _ := setup(t)
	cases := []struct {
		name           string
		status         int
		body           string
		notSaved, perm bool
		wantInMessage  string
	}{
		{"not saved", http.StatusNotFound, `{"error":{"code":404,"message":"Resource not found","status":"NOT_FOUND"}}`, true, false, ""},
		{"invalid object", http.StatusBadRequest, `{"error":{"code":400,"message":"Invalid hexBackgroundColor","status":"INVALID_ARGUMENT"}}`, false, true, "Invalid hexBackgroundColor"},
		{"no permission", http.StatusForbidden, `{"error":{"code":403,"message":"Caller does not own issuer","status":"PERMISSION_DENIED"}}`, false, true, "Caller does not own issuer"},
		{"unavailable", http.StatusServiceUnavailable, `{"error":{"code":503,"message":"Backend error","status":"UNAVAILABLE"}}`, false, false, "503"},
		{"rate limited", http.StatusTooManyRequests, `{"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED"}}`, false, false, "429"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFakeGoogle(t)
			f.answer(0, "", c.status, c.body)
			err := f.updater(t, key).UpdatePass(context.Background(), samplePass)
			require.Error(t, err)
			require.Equal(t, c.notSaved, errors.Is(err, perfilseguro.ErrPassNotSaved), err)
			require.Equal(t, c.perm, errors.Is(err, perfilseguro.ErrPermanent), err)
			require.Contains(t, err.Error(), c.wantInMessage)
		})
	}
}

func TestUpdatePassTokenRefused(t *testing.T) {
	t.Parallel()
	key, _ := setup(t)
	f := newFakeGoogle(t)
	f.answer(http.StatusBadRequest, `{"error":"invalid_grant","error_description":"Invalid JWT Signature."}`, 0, "")
	err := f.updater(t, key).UpdatePass(context.Background(), samplePass)
	require.ErrorIs(t, err, perfilseguro.ErrPermanent)
	require.Contains(t, err.Error(), "invalid_grant")

	f.answer(http.StatusServiceUnavailable, "try later", 0, "")
	err = f.updater(t, key).UpdatePass(context.Background(), samplePass)
	require.Error(t, err)
	require.NotErrorIs(t, err, perfilseguro.ErrPermanent, "a token endpoint outage may pass")

	_, patches := f.calls()
	require.Empty(t, patches, "no API call without a token")
}

func TestNewUpdaterChecksConfigAndPass(t *testing.T) {
	t.Parallel()
	key, _ := setup(t)
	noIssuer := config(key)
	noIssuer.IssuerID = ""
	_, err := googlewallet.NewUpdater(noIssuer, googlewallet.UpdaterOptions{})
	require.ErrorContains(t, err, "issuer")
	_, err = googlewallet.NewUpdater(config(nil), googlewallet.UpdaterOptions{})
	require.ErrorContains(t, err, "private key")

	f := newFakeGoogle(t)
	p := samplePass
	p.VerifyURL = ""
	require.Error(t, f.updater(t, key).UpdatePass(context.Background(), p))
	tokens, patches := f.calls()
	require.Empty(t, tokens)
	require.Empty(t, patches)
}
