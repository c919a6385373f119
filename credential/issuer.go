package credential

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// JOSE "typ" values of the two tokens this package signs.
const (
	typSDJWTVC    = "dc+sd-jwt"      // draft-ietf-oauth-sd-jwt-vc §3.2.1
	typStatusList = "statuslist+jwt" // draft-ietf-oauth-status-list §5.1
)

// vctPath is appended to the issuer URL to name the credential type (and serve its type metadata).
const vctPath = "/credentials/identidad-validada"

// Issuer signs credentials and status lists with Keys[0]; the other keys are older ones still published.
type Issuer struct {
	URL  string           // the issuer identifier (iss), e.g. https://perfilseguro.mx — no trailing slash
	Keys []Key            // Keys[0] signs; the rest stay in the JWKS so earlier credentials still verify
	Now  func() time.Time // nil: time.Now
}

// VCT is the credential type identifier, also the URL that serves TypeMetadata.
func (i *Issuer) VCT() string { return i.URL + vctPath }

// Metadata is the JWT VC Issuer Metadata document served at /.well-known/jwt-vc-issuer.
func (i *Issuer) Metadata() map[string]any {
	return map[string]any{"issuer": i.URL, "jwks": JWKS(i.Keys)}
}

// now is the issuer's clock.
func (i *Issuer) now() time.Time {
	if i.Now == nil {
		return time.Now()
	}
	return i.Now()
}

// signingKey checks the issuer is usable and returns the key that signs.
func (i *Issuer) signingKey() (Key, error) {
	if i.URL == "" || strings.HasSuffix(i.URL, "/") {
		return Key{}, fmt.Errorf("issuer URL %q must be set and have no trailing slash", i.URL)
	}
	if len(i.Keys) == 0 {
		return Key{}, errors.New("issuer has no key")
	}
	k := i.Keys[0]
	if _, _, err := publicXY(k.Private); err != nil {
		return Key{}, fmt.Errorf("issuer signing key %q: %w", k.ID, err)
	}
	if k.ID == "" {
		return Key{}, errors.New("issuer signing key has no kid (build keys with NewKey)")
	}
	return k, nil
}

// signJWT signs claims as a compact ES256 JWS with the given typ and the key's kid.
func signJWT(k Key, typ string, claims map[string]any) (string, error) {
	token := jwt.NewWithClaims(jwt.SigningMethodES256, jwt.MapClaims(claims))
	token.Header["typ"] = typ
	token.Header["kid"] = k.ID
	signed, err := token.SignedString(k.Private)
	if err != nil {
		return "", fmt.Errorf("sign %s with %s: %w", typ, k.ID, err)
	}
	return signed, nil
}

// typSessionProof is the JOSE "typ" of a verification session's proof.
const typSessionProof = "perfilseguro-session+jwt"

// SignSessionProof signs what a person shared with a partner in a verification session, so the
// partner can check it offline against the issuer's JWKS (/.well-known/jwt-vc-issuer): claims
// gets iss and iat; the caller sets sub (the session), aud (the partner) and the shared claims.
func (i *Issuer) SignSessionProof(claims map[string]any) (string, error) {
	k, err := i.signingKey()
	if err != nil {
		return "", err
	}
	claims["iss"] = i.URL
	claims["iat"] = i.now().Unix()
	return signJWT(k, typSessionProof, claims)
}
