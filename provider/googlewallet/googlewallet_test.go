package googlewallet_test

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/googlewallet"
	"github.com/perfilseguro/perfilseguro/provider/internal/passtest"
)

var samplePass = passtest.Sample

var (
	keysOnce sync.Once
	keys     [2]*rsa.PrivateKey
)

// setup returns two RSA keys shared by the package's tests (generation is slow under -race).
func setup(t *testing.T) (key, other *rsa.PrivateKey) {
	t.Helper()
	keysOnce.Do(func() {
		for i := range keys {
			k, err := rsa.GenerateKey(rand.Reader, 2048)
			if err != nil {
				panic(err)
			}
			keys[i] = k
		}
	})
	return keys[0], keys[1]
}

func config(key *rsa.PrivateKey) googlewallet.Config {
	return googlewallet.Config{
		IssuerID:            "3388000000012345678",
		ClassSuffix:         "perfil_seguro",
		ServiceAccountEmail: "wallet@perfil-seguro.iam.gserviceaccount.com",
		PrivateKey:          key,
		Origins:             []string{"https://perfilseguro.mx"},
	}
}

// saveClaims mirrors the JWT Google expects.
type saveClaims struct {
	Typ     string   `json:"typ"`
	Origins []string `json:"origins"`
	Payload struct {
		GenericClasses []struct {
			ID string `json:"id"`
		} `json:"genericClasses"`
		GenericObjects []struct {
			ID        string `json:"id"`
			ClassID   string `json:"classId"`
			State     string `json:"state"`
			CardTitle struct {
				DefaultValue struct{ Language, Value string } `json:"defaultValue"`
			} `json:"cardTitle"`
			Header struct {
				DefaultValue struct{ Language, Value string } `json:"defaultValue"`
			} `json:"header"`
			Subheader struct {
				DefaultValue struct{ Value string } `json:"defaultValue"`
			} `json:"subheader"`
			TextModulesData []struct{ ID, Header, Body string } `json:"textModulesData"`
			Barcode         struct {
				Type          string `json:"type"`
				Value         string `json:"value"`
				AlternateText string `json:"alternateText"`
			} `json:"barcode"`
			ValidTimeInterval struct {
				Start struct{ Date string } `json:"start"`
				End   struct{ Date string } `json:"end"`
			} `json:"validTimeInterval"`
			HexBackgroundColor string `json:"hexBackgroundColor"`
		} `json:"genericObjects"`
	} `json:"payload"`
	jwt.RegisteredClaims
}

func parse(t *testing.T, url string, pub *rsa.PublicKey) (*jwt.Token, *saveClaims, error) {
	t.Helper()
	require.True(t, strings.HasPrefix(url, "https://pay.google.com/gp/v/save/"), url)
	claims := &saveClaims{}
	tok, err := jwt.ParseWithClaims(strings.TrimPrefix(url, googlewallet.SaveURLPrefix), claims,
		func(*jwt.Token) (any, error) { return pub, nil },
		jwt.WithValidMethods([]string{"RS256"}), jwt.WithAudience("google"),
		jwt.WithIssuer("wallet@perfil-seguro.iam.gserviceaccount.com"), jwt.WithIssuedAt())
	return tok, claims, err
}

func TestSaveURLVerifiesAndCarriesThePass(t *testing.T) {
	t.Parallel()
	key, _ := setup(t)
	url, err := googlewallet.New(config(key)).SaveURL(samplePass)
	require.NoError(t, err)

	tok, c, err := parse(t, url, &key.PublicKey)
	require.NoError(t, err)
	require.Equal(t, "RS256", tok.Header["alg"])
	require.Equal(t, "savetowallet", c.Typ)
	require.Equal(t, []string{"https://perfilseguro.mx"}, c.Origins)
	require.WithinDuration(t, time.Now(), c.IssuedAt.Time, time.Minute)

	require.Len(t, c.Payload.GenericObjects, 1)
	o := c.Payload.GenericObjects[0]
	require.Len(t, c.Payload.GenericClasses, 1, "the class travels with the object, so the first save creates it")
	require.Equal(t, o.ClassID, c.Payload.GenericClasses[0].ID)
	require.Equal(t, "3388000000012345678.PS-1234-5678-90", o.ID)
	require.Equal(t, "3388000000012345678.perfil_seguro", o.ClassID)
	require.Equal(t, "ACTIVE", o.State)
	require.Equal(t, "Perfil Seguro", o.CardTitle.DefaultValue.Value)
	require.Equal(t, "es-MX", o.Header.DefaultValue.Language)
	require.Equal(t, "María José Núñez", o.Header.DefaultValue.Value)
	require.NotEmpty(t, o.Subheader.DefaultValue.Value)
	require.Equal(t, "QR_CODE", o.Barcode.Type)
	require.Equal(t, samplePass.VerifyURL, o.Barcode.Value)
	require.Equal(t, "PS-1234-5678-90", o.Barcode.AlternateText)
	require.Equal(t, "2025-03-07T00:00:00Z", o.ValidTimeInterval.Start.Date)
	require.Equal(t, "2026-03-07T00:00:00Z", o.ValidTimeInterval.End.Date)
	require.Regexp(t, `^#[0-9a-f]{6}$`, o.HexBackgroundColor)

	bodies := map[string]string{}
	for _, m := range o.TextModulesData {
		bodies[m.Header] = m.Body
	}
	require.Equal(t, map[string]string{
		"ID de perfil":  "PS-1234-5678-90",
		"Verificación":  "Nivel 3",
		"Vigente hasta": "07/03/2026",
	}, bodies)
}

func TestSaveURLAudienceIsAPlainString(t *testing.T) {
	t.Parallel()
	key, _ := setup(t)
	url, err := googlewallet.New(config(key)).SaveURL(samplePass)
	require.NoError(t, err)
	parts := strings.Split(strings.TrimPrefix(url, googlewallet.SaveURLPrefix), ".")
	require.Len(t, parts, 3)
	raw, err := jwt.NewParser().DecodeSegment(parts[1])
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	require.Equal(t, "google", m["aud"], "Google's examples send aud as a string")
}

func TestSaveURLSignedWithAnotherKeyFails(t *testing.T) {
	t.Parallel()
	key, other := setup(t)
	url, err := googlewallet.New(config(other)).SaveURL(samplePass)
	require.NoError(t, err)
	_, _, err = parse(t, url, &key.PublicKey)
	require.ErrorIs(t, err, jwt.ErrTokenSignatureInvalid)
}

func TestSaveURLSanitizesObjectID(t *testing.T) {
	t.Parallel()
	key, _ := setup(t)
	p := samplePass
	p.ProfileID = "PS 12/34"
	url, err := googlewallet.New(config(key)).SaveURL(p)
	require.NoError(t, err)
	_, c, err := parse(t, url, &key.PublicKey)
	require.NoError(t, err)
	require.Equal(t, "3388000000012345678.PS_12_34", c.Payload.GenericObjects[0].ID)
	require.Equal(t, "PS 12/34", c.Payload.GenericObjects[0].Barcode.AlternateText)
}

func TestSaveURLRejectsMissingInput(t *testing.T) {
	t.Parallel()
	key, _ := setup(t)
	noKey := config(nil)
	_, err := googlewallet.New(noKey).SaveURL(samplePass)
	require.ErrorContains(t, err, "private key")
	noIssuer := config(key)
	noIssuer.IssuerID = ""
	_, err = googlewallet.New(noIssuer).SaveURL(samplePass)
	require.Error(t, err)
	p := samplePass
	p.VerifyURL = ""
	_, err = googlewallet.New(config(key)).SaveURL(p)
	require.Error(t, err)
}

func TestLoadServiceAccountJSON(t *testing.T) {
	t.Parallel()
	key, _ := setup(t)
	der, err := x509.MarshalPKCS8PrivateKey(key)
	require.NoError(t, err)
	file, err := json.Marshal(map[string]string{
		"type":           "service_account",
		"project_id":     "perfil-seguro",
		"private_key_id": "abc",
		"private_key":    string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})),
		"client_email":   "wallet@perfil-seguro.iam.gserviceaccount.com",
	})
	require.NoError(t, err)
	email, got, err := googlewallet.LoadServiceAccountJSON(file)
	require.NoError(t, err)
	require.Equal(t, "wallet@perfil-seguro.iam.gserviceaccount.com", email)
	require.True(t, key.Equal(got))

	_, _, err = googlewallet.LoadServiceAccountJSON([]byte(`{"client_email":"x@y","private_key":"nope"}`))
	require.Error(t, err)
	_, _, err = googlewallet.LoadServiceAccountJSON([]byte(`{"type":"authorized_user"}`))
	require.Error(t, err)
}

func TestEnsureDevKeyConcurrentFirstRun(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "keys")
	const n = 4
	got := make([]*rsa.PrivateKey, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			got[i], errs[i] = googlewallet.EnsureDevKey(dir)
		})
	}
	wg.Wait()
	for i := range n {
		require.NoError(t, errs[i])
		require.True(t, got[0].Equal(got[i]), "every caller gets the same key")
	}
	again, err := googlewallet.EnsureDevKey(dir)
	require.NoError(t, err)
	require.True(t, got[0].Equal(again), "later runs reuse the key")
	require.Equal(t, 2048, again.N.BitLen())

	info, err := os.Stat(filepath.Join(dir, googlewallet.DevKeyFile))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "no temporary files left")

	cfg, err := googlewallet.DevConfig(dir, nil)
	require.NoError(t, err)
	url, err := googlewallet.New(cfg).SaveURL(samplePass)
	require.NoError(t, err)
	_, err = jwt.Parse(strings.TrimPrefix(url, googlewallet.SaveURLPrefix),
		func(*jwt.Token) (any, error) { return &again.PublicKey, nil }, jwt.WithValidMethods([]string{"RS256"}))
	require.NoError(t, err)
}

// An ended validation's object is EXPIRED (expiry) or INACTIVE (revocation) and says why.
func TestAnEndedValidationChangesTheObjectState(t *testing.T) {
	t.Parallel()
	key, _ := setup(t)
	for status, want := range map[string][2]string{perfilseguro.PassExpired: {"EXPIRED", "Expirado"}, perfilseguro.PassRevoked: {"INACTIVE", "Revocado"}} {
		p := samplePass
		p.Status = status
		url, err := googlewallet.New(config(key)).SaveURL(p)
		require.NoError(t, err)
		_, c, err := parse(t, url, &key.PublicKey)
		require.NoError(t, err)
		o := c.Payload.GenericObjects[0]
		require.Equal(t, want[0], o.State)
		require.Equal(t, "Estado", o.TextModulesData[2].Header)
		require.Equal(t, want[1], o.TextModulesData[2].Body)
	}
}
