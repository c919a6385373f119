package credential

import (
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"
)

// presenting is a fixture whose credential is bound to a holder key the test controls.
type presenting struct {
	fixture
	holder Key
	check  PresentationCheck
}

func setupPresenting(t *testing.T) presenting {
	t.Helper()
	f := setup(t)
	holder := newTestKey(t)
	jwk := PublicJWK(holder)
	for _, k := range []string{"kid", "alg", "use"} {
		delete(jwk, k)
	}
	f.subject.HolderJWK = jwk
	return presenting{fixture: f, holder: holder, check: PresentationCheck{Keys: []Key{f.key}, Issuer: issuerURL,
		VCT: f.issuer.VCT(), Audience: "x509_san_dns:verifier.example", Nonce: "n-0S6_WzA2Mj", Now: f.now, Leeway: 5 * time.Minute}}
}

// keyBinding signs a KB-JWT over sdjwt (which ends with "~") with key.
func keyBinding(t *testing.T, key Key, sdjwt string, claims jwt.MapClaims, typ string) string {
	t.Helper()
	if _, ok := claims["sd_hash"]; !ok {
		sum := sha256.Sum256([]byte(sdjwt))
		claims["sd_hash"] = base64.RawURLEncoding.EncodeToString(sum[:])
	}
	tok := jwt.NewWithClaims(jwt.SigningMethodES256, claims)
	tok.Header["typ"] = typ
	s, err := tok.SignedString(key.Private)
	require.NoError(t, err)
	return s
}

// present discloses keep and appends a KB-JWT for the fixture's audience and nonce at now.
func (p presenting) present(t *testing.T, change func(jwt.MapClaims), keep ...string) string {
	t.Helper()
	shown, err := Present(p.issue(t), keep...)
	require.NoError(t, err)
	claims := jwt.MapClaims{"aud": p.check.Audience, "nonce": p.check.Nonce, "iat": p.now.Unix()}
	if change != nil {
		change(claims)
	}
	return shown + keyBinding(t, p.holder, shown, claims, "kb+jwt")
}

func TestAKeyBoundPresentationDisclosesOnlyWhatWasChosen(t *testing.T) {
	t.Parallel()
	p := setupPresenting(t)
	got, err := VerifyPresentation(p.present(t, nil, "name"), p.check)
	require.NoError(t, err)
	require.Equal(t, "María José Pérez <Ñ&>", got.Claims["name"])
	require.NotContains(t, got.Claims, "origin")
	require.NotContains(t, got.Claims, "scores")
	require.Equal(t, "PS-7K3M-Q9XD", got.Claims["profile_id"], "never selectively disclosable")
	require.Equal(t, issuerURL+"/status/1", got.StatusURI)
	require.Equal(t, 42, got.StatusIdx)

	// iat a little off either way is fine.
	p.check.Now = p.now.Add(4 * time.Minute)
	_, err = VerifyPresentation(p.present(t, nil), p.check)
	require.NoError(t, err)
}

func TestPresentationsThatMustBeRefused(t *testing.T) {
	t.Parallel()
	p := setupPresenting(t)
	other := newTestKey(t)
	full := p.issue(t)
	shown, err := Present(full, "name")
	require.NoError(t, err)
	both, err := Present(full, "name", "origin")
	require.NoError(t, err)
	kb := func(change func(jwt.MapClaims)) jwt.MapClaims {
		c := jwt.MapClaims{"aud": p.check.Audience, "nonce": p.check.Nonce, "iat": p.now.Unix()}
		if change != nil {
			change(c)
		}
		return c
	}
	jwtPartOf, disclosures := parts(t, shown)
	tampered, err := disclosureWithSalt("salt", "name", "Otra Persona")
	require.NoError(t, err)
	withTampered := compact{jwt: jwtPartOf}.join(append([]string{tampered}, disclosures[1:]...))
	withForeign := compact{jwt: jwtPartOf}.join(append(disclosures, mustDisclosure(t, "otra-sal", "origin", "x")))

	noCnf := setupPresenting(t)
	noCnf.subject.HolderJWK = nil
	unbound := noCnf.issue(t)

	expired := setupPresenting(t)
	expired.check.Now = expired.subject.ExpiresAt.Add(time.Second)

	for name, tc := range map[string]struct {
		presentation string
		check        PresentationCheck
		want         error
	}{
		"no key binding JWT":               {shown, p.check, ErrKeyBinding},
		"another audience":                 {shown + keyBinding(t, p.holder, shown, kb(func(c jwt.MapClaims) { c["aud"] = "x509_san_dns:evil.example" }), "kb+jwt"), p.check, ErrKeyBinding},
		"another nonce":                    {shown + keyBinding(t, p.holder, shown, kb(func(c jwt.MapClaims) { c["nonce"] = "otro" }), "kb+jwt"), p.check, ErrKeyBinding},
		"no nonce":                         {shown + keyBinding(t, p.holder, shown, kb(func(c jwt.MapClaims) { delete(c, "nonce") }), "kb+jwt"), p.check, ErrKeyBinding},
		"stale iat":                        {shown + keyBinding(t, p.holder, shown, kb(func(c jwt.MapClaims) { c["iat"] = p.now.Add(-6 * time.Minute).Unix() }), "kb+jwt"), p.check, ErrKeyBinding},
		"no iat":                           {shown + keyBinding(t, p.holder, shown, kb(func(c jwt.MapClaims) { delete(c, "iat") }), "kb+jwt"), p.check, ErrKeyBinding},
		"signed by another key":            {shown + keyBinding(t, other, shown, kb(nil), "kb+jwt"), p.check, ErrKeyBinding},
		"typ is not kb+jwt":                {shown + keyBinding(t, p.holder, shown, kb(nil), "JWT"), p.check, ErrKeyBinding},
		"sd_hash of another set":           {shown + keyBinding(t, p.holder, jwtPartOf+"~", kb(nil), "kb+jwt"), p.check, ErrKeyBinding},
		"a disclosure added after binding": {both + keyBinding(t, p.holder, shown, kb(nil), "kb+jwt"), p.check, ErrKeyBinding},
		"a disclosure not in _sd":          {withForeign + keyBinding(t, p.holder, withForeign, kb(nil), "kb+jwt"), p.check, ErrDisclosure},
		"tampered disclosure":              {withTampered + keyBinding(t, p.holder, withTampered, kb(nil), "kb+jwt"), p.check, ErrDisclosure},
		"credential without cnf":           {unbound + keyBinding(t, p.holder, unbound, kb(nil), "kb+jwt"), noCnf.check, ErrKeyBinding},
		"expired credential":               {expired.present(t, func(c jwt.MapClaims) { c["iat"] = expired.check.Now.Unix() }), expired.check, ErrExpired},
		"another issuer's key":             {shown + keyBinding(t, p.holder, shown, kb(nil), "kb+jwt"), withKeys(p.check, other), ErrSignature},
		"another vct":                      {shown + keyBinding(t, p.holder, shown, kb(nil), "kb+jwt"), withVCT(p.check, "https://otro.example/vct"), ErrMalformed},
		"garbage":                          {"no-es-un-sd-jwt", p.check, ErrMalformed},
		"garbage key binding":              {shown + "a.b", p.check, ErrKeyBinding},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := VerifyPresentation(tc.presentation, tc.check)
			require.ErrorIs(t, err, tc.want)
		})
	}
}

func withKeys(c PresentationCheck, keys ...Key) PresentationCheck { c.Keys = keys; return c }

func withVCT(c PresentationCheck, vct string) PresentationCheck { c.VCT = vct; return c }

// The KB-JWT's sd_hash covers the exact string presented, final "~" included.
func TestSDHashCoversTheWholeSDJWT(t *testing.T) {
	t.Parallel()
	p := setupPresenting(t)
	presentation := p.present(t, nil, "name", "origin")
	cut := strings.LastIndex(presentation, "~")
	payload := jwtPart(t, presentation[cut+1:], 1)
	sum := sha256.Sum256([]byte(presentation[:cut+1]))
	require.Equal(t, base64.RawURLEncoding.EncodeToString(sum[:]), payload["sd_hash"])
	_, err := VerifyPresentation(presentation, p.check)
	require.NoError(t, err)
}
