package api_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/apns"
	"github.com/perfilseguro/perfilseguro/provider/applewallet"
	"github.com/perfilseguro/perfilseguro/worker"
)

// testPassType is APPLE_PASS_TYPE_ID of the test configuration (config default).
const testPassType = "pass.mx.perfilseguro.dev"

// fakeAPNs plays Apple's push service over TLS and HTTP/2, checking each push as APNs would.
type fakeAPNs struct {
	t      *testing.T
	srv    *httptest.Server
	key    *ecdsa.PrivateKey
	gone   map[string]bool // push tokens answered 410
	mu     sync.Mutex
	pushed []string
	bad    []string // what a real APNs would have refused
}

func newFakeAPNs(t *testing.T, gone ...string) *fakeAPNs {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	f := &fakeAPNs{t: t, key: key, gone: map[string]bool{}}
	for _, g := range gone {
		f.gone[g] = true
	}
	f.srv = httptest.NewUnstartedServer(http.HandlerFunc(f.serve))
	f.srv.EnableHTTP2 = true
	f.srv.StartTLS()
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAPNs) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	token, ok := strings.CutPrefix(r.URL.Path, "/3/device/")
	var problems []string
	if r.ProtoMajor != 2 {
		problems = append(problems, "not HTTP/2: "+r.Proto)
	}
	if !ok || r.Method != http.MethodPost || token == "" {
		problems = append(problems, "path "+r.Method+" "+r.URL.Path)
	}
	if got := r.Header.Get("apns-topic"); got != testPassType {
		problems = append(problems, "apns-topic "+got)
	}
	if string(body) != "{}" {
		problems = append(problems, "payload "+string(body))
	}
	bearer, _ := strings.CutPrefix(r.Header.Get("authorization"), "bearer ")
	parsed, err := jwt.Parse(bearer, func(*jwt.Token) (any, error) { return &f.key.PublicKey, nil },
		jwt.WithValidMethods([]string{"ES256"}), jwt.WithIssuer("DEVTEAM000"), jwt.WithIssuedAt())
	if err != nil || parsed.Header["kid"] != "KEYID00001" {
		problems = append(problems, fmt.Sprintf("provider token: %v", err))
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(problems) > 0 {
		f.bad = append(f.bad, strings.Join(problems, "; "))
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"reason":"BadRequest"}`)
		return
	}
	f.pushed = append(f.pushed, token)
	if f.gone[token] {
		w.WriteHeader(http.StatusGone)
		io.WriteString(w, `{"reason":"Unregistered","timestamp":1700000000000}`)
		return
	}
	w.Header().Set("apns-id", "3C9E6B5E-0000-0000-0000-000000000000")
}

func (f *fakeAPNs) client(t *testing.T) *apns.Client {
	c, err := apns.New(apns.Config{BaseURL: f.srv.URL, KeyID: "KEYID00001", TeamID: "DEVTEAM000", Topic: testPassType,
		PrivateKey: f.key, HTTPClient: f.srv.Client()})
	require.NoError(t, err)
	return c
}

func (f *fakeAPNs) pushes() ([]string, []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.pushed...), append([]string(nil), f.bad...)
}

// passJSON is the part of pass.json the device reads here.
type passJSON struct {
	SerialNumber        string `json:"serialNumber"`
	WebServiceURL       string `json:"webServiceURL"`
	AuthenticationToken string `json:"authenticationToken"`
	Voided              bool   `json:"voided"`
	Generic             struct {
		PrimaryFields   []struct{ Key, Label, Value string } `json:"primaryFields"`
		AuxiliaryFields []struct{ Key, Label, Value string } `json:"auxiliaryFields"`
	} `json:"generic"`
}

// openPass checks a .pkpass as Wallet would (the signature over manifest.json, with openssl and
// the development chain) and returns its pass.json.
func openPass(t *testing.T, pkpass []byte) passJSON {
	t.Helper()
	files := unzip(t, pkpass)
	verifyPassSignature(t, files)
	var p passJSON
	require.NoError(t, json.Unmarshal(files["pass.json"], &p))
	return p
}

// verifyPassSignature checks a pass's detached signature over manifest.json with openssl and the
// development chain, as Wallet checks it with Apple's.
func verifyPassSignature(t *testing.T, files map[string][]byte) {
	t.Helper()
	_, _, dir := passSigners(t)
	tmp := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(tmp, "manifest.json"), files["manifest.json"], 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(tmp, "signature"), files["signature"], 0o600))
	out, err := exec.Command("openssl", "smime", "-verify", "-binary", "-inform", "DER",
		"-in", filepath.Join(tmp, "signature"), "-content", filepath.Join(tmp, "manifest.json"),
		"-CAfile", filepath.Join(dir, applewallet.DevRootFile), "-purpose", "any", "-out", os.DevNull).CombinedOutput()
	require.NoError(t, err, "openssl: %s", out)
}

// device is a simulated iPhone speaking Apple's PassKit web service protocol.
type device struct {
	t        *testing.T
	base     string // the pass's webServiceURL
	id       string // deviceLibraryIdentifier
	push     string // its APNs push token
	token    string // the pass's authenticationToken
	serial   string
	modified string // Last-Modified of the pass it holds
	tag      string // lastUpdated of its last serials call
}

func (d *device) call(method, path, body string, auth bool, header ...string) (*http.Response, []byte) {
	d.t.Helper()
	req, err := http.NewRequest(method, d.base+path, strings.NewReader(body))
	require.NoError(d.t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if auth {
		req.Header.Set("Authorization", "ApplePass "+d.token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(d.t, err)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

func (d *device) register() int {
	res, _ := d.call("POST", fmt.Sprintf("/v1/devices/%s/registrations/%s/%s", d.id, testPassType, d.serial),
		fmt.Sprintf(`{"pushToken":%q}`, d.push), true)
	return res.StatusCode
}

// updatedSerials asks for the serial numbers updated since its last tag.
func (d *device) updatedSerials() (int, []string) {
	d.t.Helper()
	path := fmt.Sprintf("/v1/devices/%s/registrations/%s", d.id, testPassType)
	if d.tag != "" {
		path += "?passesUpdatedSince=" + d.tag
	}
	res, body := d.call("GET", path, "", false)
	if res.StatusCode != http.StatusOK {
		return res.StatusCode, nil
	}
	var s struct {
		SerialNumbers []string `json:"serialNumbers"`
		LastUpdated   string   `json:"lastUpdated"`
	}
	require.NoError(d.t, json.Unmarshal(body, &s))
	require.NotEmpty(d.t, s.LastUpdated)
	d.tag = s.LastUpdated
	return res.StatusCode, s.SerialNumbers
}

// latestPass downloads the pass as Wallet does, with If-Modified-Since once it holds one.
func (d *device) latestPass() (*http.Response, []byte) {
	var header []string
	if d.modified != "" {
		header = []string{"If-Modified-Since", d.modified}
	}
	return d.call("GET", fmt.Sprintf("/v1/passes/%s/%s", testPassType, d.serial), "", true, header...)
}

// A simulated iPhone walks the whole PassKit web service: it installs the pass, registers, the
// administrator revokes the profile, APNs delivers the push, the device lists what changed and
// downloads the voided pass; every pass it receives verifies with openssl.
func TestASimulatedIPhoneFollowsARevocationThroughThePassKitWebService(t *testing.T) {
	t.Parallel()
	e := setup(t)
	validated := time.Now().AddDate(0, -1, 0)
	id, pid := seedUser(t, e.db, seeded{Level: 3, Validated: &validated})
	fake := newFakeAPNs(t, "push-token-of-a-lost-iphone")
	e.runWorker(t, func(d *worker.Deps) { d.Passes.Pusher = fake.client(t) })

	// Install: the owner downloads the pass from Mi Perfil.
	res, pkpass := get(t, e.signedIn(t, id), e.srv.URL+"/api/wallet/apple/"+itoa(id))
	require.Equal(t, http.StatusOK, res.StatusCode, string(pkpass))
	installed := openPass(t, pkpass)
	require.Equal(t, testBaseURL+"/api/passkit", installed.WebServiceURL)
	require.GreaterOrEqual(t, len(installed.AuthenticationToken), 16, "Apple requires 16 characters or more")
	require.False(t, installed.Voided)
	stored := dbGet[string](t, e.db, `SELECT token_hash FROM apple_pass_tokens WHERE user_id = $1`, id)
	require.NotContains(t, stored, installed.AuthenticationToken, "the token is stored hashed")

	// The device talks to the webServiceURL (the test server stands at PUBLIC_BASE_URL).
	iphone := &device{t: t, base: e.srv.URL + "/api/passkit", id: "a1b2c3d4e5f6", push: "push-token-of-the-iphone",
		token: installed.AuthenticationToken, serial: pid}
	lost := &device{t: t, base: iphone.base, id: "lost0000", push: "push-token-of-a-lost-iphone",
		token: installed.AuthenticationToken, serial: pid}

	// Registration: 401 without or with a wrong token, 201 new, 200 known.
	wrong := *iphone
	wrong.token = strings.Repeat("0", len(iphone.token))
	require.Equal(t, http.StatusUnauthorized, wrong.register())
	res, _ = iphone.call("POST", fmt.Sprintf("/v1/devices/%s/registrations/%s/%s", iphone.id, testPassType, pid), `{"pushToken":"x"}`, false)
	require.Equal(t, http.StatusUnauthorized, res.StatusCode, "no Authorization header")
	other := *iphone
	other.serial = "PS-0000-0000-00"
	require.Equal(t, http.StatusUnauthorized, other.register(), "another serial with this token")
	require.Equal(t, http.StatusCreated, iphone.register())
	require.Equal(t, http.StatusOK, iphone.register())
	require.Equal(t, http.StatusCreated, lost.register())

	status, serials := iphone.updatedSerials()
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, []string{pid}, serials)
	status, _ = iphone.updatedSerials()
	require.Equal(t, http.StatusNoContent, status, "nothing changed since the tag")
	res, body := iphone.latestPass()
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, pkpass, body, "the latest pass is the one installed")
	iphone.modified = res.Header.Get("Last-Modified")
	res, _ = iphone.latestPass()
	require.Equal(t, http.StatusNotModified, res.StatusCode)

	// The administrator revokes the profile: the pass is rebuilt voided and every device pushed.
	time.Sleep(1100 * time.Millisecond) // Last-Modified has one-second resolution
	admin := e.adminClient(t)
	r := e.send(t, admin, "POST", fmt.Sprintf("/api/admin/users/%d/revoke", id), map[string]string{"motivo": "Documento robado"})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Eventually(t, func() bool {
		pushed, _ := fake.pushes()
		return len(pushed) >= 2
	}, 20*time.Second, 50*time.Millisecond, "APNs got the pushes")
	pushed, bad := fake.pushes()
	require.Empty(t, bad, "every push was well-formed")
	require.ElementsMatch(t, []string{iphone.push, lost.push}, pushed)
	require.Eventually(t, func() bool {
		n := countOf(t, e.db, `SELECT count(*) FROM apple_pass_registrations WHERE push_token = $1`, lost.push)
		return n == 0
	}, 5*time.Second, 50*time.Millisecond, "a 410 from APNs removes that registration")

	// The pushed device asks what changed and downloads the voided pass.
	status, serials = iphone.updatedSerials()
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, []string{pid}, serials)
	res, body = iphone.latestPass()
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, "application/vnd.apple.pkpass", res.Header.Get("Content-Type"))
	voided := openPass(t, body)
	require.True(t, voided.Voided)
	require.Equal(t, "Revocado", voided.Generic.AuxiliaryFields[0].Value)
	require.Equal(t, installed.AuthenticationToken, voided.AuthenticationToken, "a rebuilt pass keeps its token")
	require.Equal(t, pid, voided.SerialNumber)
	iphone.modified = res.Header.Get("Last-Modified")
	res, _ = iphone.latestPass()
	require.Equal(t, http.StatusNotModified, res.StatusCode)
	res, _ = wrong.latestPass()
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)

	// Logs are accepted; unregistering ends the updates.
	res, _ = iphone.call("POST", "/v1/log", `{"logs":["Web service error for pass.mx.perfilseguro.dev"]}`, false)
	require.Equal(t, http.StatusOK, res.StatusCode)
	res, _ = iphone.call("DELETE", fmt.Sprintf("/v1/devices/%s/registrations/%s/%s", iphone.id, testPassType, pid), "", true)
	require.Equal(t, http.StatusOK, res.StatusCode)
	iphone.tag = ""
	status, _ = iphone.updatedSerials()
	require.Equal(t, http.StatusNoContent, status, "an unregistered device has no passes")
	res, _ = iphone.call("GET", "/v1/devices/x/registrations/pass.com.other", "", false)
	require.Equal(t, http.StatusNotFound, res.StatusCode, "another pass type")
}

// googleObjects records the Google Wallet object updates the worker makes.
type googleObjects struct {
	mu      sync.Mutex
	updates []perfilseguro.PassData
}

func (g *googleObjects) UpdatePass(_ context.Context, p perfilseguro.PassData) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.updates = append(g.updates, p)
	return nil
}

func (g *googleObjects) statuses() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []string
	for _, p := range g.updates {
		out = append(out, p.ProfileID+":"+p.Status+":"+p.Name)
	}
	return out
}

// When an administrator deletes an account, the iPhone that holds its pass is pushed and
// downloads a voided pass that shows no one; the saved Google object is made inactive too. The
// pass stays reachable with its token until the tombstone is forgotten.
func TestADeletedAccountsPassIsVoidedOnTheDevicesThatHoldIt(t *testing.T) {
	t.Parallel()
	e := setup(t)
	validated := time.Now().AddDate(0, -1, 0)
	id, pid := seedUser(t, e.db, seeded{Name: "Ana Borrada", Level: 3, Validated: &validated})
	fake := newFakeAPNs(t)
	google := &googleObjects{}
	e.runWorker(t, func(d *worker.Deps) { d.Passes.Pusher, d.Passes.GoogleObjects = fake.client(t), google })

	owner := e.signedIn(t, id)
	res, pkpass := get(t, owner, e.srv.URL+"/api/wallet/apple/"+itoa(id))
	require.Equal(t, http.StatusOK, res.StatusCode, string(pkpass))
	res, body := get(t, owner, e.srv.URL+"/api/wallet/google/"+itoa(id))
	require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	installed := openPass(t, pkpass)
	iphone := &device{t: t, base: e.srv.URL + "/api/passkit", id: "d3l3t3d", push: "push-token-of-the-iphone",
		token: installed.AuthenticationToken, serial: pid}
	require.Equal(t, http.StatusCreated, iphone.register())
	_, _ = iphone.updatedSerials()
	time.Sleep(1100 * time.Millisecond) // Last-Modified has one-second resolution

	r := e.send(t, e.adminClient(t), "DELETE", fmt.Sprintf("/api/users/%d", id), nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Eventually(t, func() bool { pushed, _ := fake.pushes(); return len(pushed) == 1 },
		20*time.Second, 50*time.Millisecond, "the device holding the pass is pushed")
	pushed, bad := fake.pushes()
	require.Empty(t, bad)
	require.Equal(t, []string{iphone.push}, pushed)
	require.Eventually(t, func() bool { return len(google.statuses()) == 1 }, 10*time.Second, 50*time.Millisecond)
	require.Equal(t, []string{pid + ":" + perfilseguro.PassDeleted + ":"}, google.statuses(), "the Google object is voided, with no name")

	status, serials := iphone.updatedSerials()
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, []string{pid}, serials)
	res, body = iphone.latestPass()
	require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	voided := openPass(t, body)
	require.True(t, voided.Voided)
	require.Equal(t, pid, voided.SerialNumber)
	require.Equal(t, installed.AuthenticationToken, voided.AuthenticationToken)
	require.Equal(t, "Cuenta eliminada", voided.Generic.AuxiliaryFields[0].Value)
	require.Equal(t, "—", voided.Generic.PrimaryFields[0].Value, "the voided pass shows no one")
	require.NotContains(t, string(unzip(t, body)["pass.json"]), "Borrada", "nor the person's name anywhere")
	wrong := *iphone
	wrong.token = strings.Repeat("0", len(iphone.token))
	res, _ = wrong.latestPass()
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)

	var tombstones, people int
	require.NoError(t, e.db.Get(&tombstones, `SELECT count(*) FROM wallet_tombstones WHERE serial_number = $1 AND voided_at IS NOT NULL`, pid))
	require.Equal(t, 1, tombstones)
	require.NoError(t, e.db.Get(&people, `SELECT count(*) FROM apple_pass_tokens WHERE serial_number = $1 AND user_id IS NOT NULL`, pid))
	require.Zero(t, people, "the token is no longer linked to anyone")
}
