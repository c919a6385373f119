package credential

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Proofs a wallet signs with its own key, which travels in the "jwk" header: the OpenID4VCI key
// proof (the key the credential is bound to) and the DPoP proof of RFC 9449 (the key an access
// token is bound to). Nonces and jti replay are the caller's: it holds the store.

// JOSE "typ" values of the two proofs.
const (
	typKeyProof = "openid4vci-proof+jwt" // OpenID4VCI 1.0 Appendix F.1
	typDPoP     = "dpop+jwt"             // RFC 9449 §4.2
)

// A proof's iat may be at most ProofMaxAge old and ProofClockSkew ahead of our clock (a phone's
// clock may run a little fast).
const (
	ProofMaxAge    = 5 * time.Minute
	ProofClockSkew = time.Minute
)

// ErrProof: a key proof or DPoP proof that is malformed, wrongly typed or signed, stale, or made
// for another audience, method or URL.
var ErrProof = errors.New("credential: invalid proof")

// KeyProof is what a verified OpenID4VCI key proof says.
type KeyProof struct {
	Key   HolderKey // the key the credential is to be bound to
	Nonce string    // the c_nonce it carries; "" when none (the caller refuses it)
}

// VerifyKeyProof checks a jwt key proof: typ openid4vci-proof+jwt, ES256, the public key in the
// jwk header (no kid, x5c or crit), its signature, aud = audience (the credential issuer) and a
// fresh iat.
func VerifyKeyProof(token, audience string, now time.Time) (KeyProof, error) {
	key, claims, err := selfSigned(token, typKeyProof, now)
	if err != nil {
		return KeyProof{}, err
	}
	aud, err := claims.GetAudience()
	if err != nil || !slices.Contains(aud, audience) {
		return KeyProof{}, fmt.Errorf("%w: aud %v is not %s", ErrProof, aud, audience)
	}
	nonce, _ := claims["nonce"].(string)
	return KeyProof{Key: key, Nonce: nonce}, nil
}

// DPoPProof is what a verified DPoP proof says.
type DPoPProof struct {
	Key HolderKey // its Thumbprint is the token's cnf.jkt
	JTI string    // unique per proof: the caller refuses one seen before
}

// VerifyDPoP checks a DPoP proof (RFC 9449 §4.3): typ dpop+jwt, ES256, the public key in the
// jwk header, its signature, htm = method, htu = uri (without query and fragment), a fresh iat,
// a jti, and, when accessToken is not "", ath = base64url(SHA-256(accessToken)).
func VerifyDPoP(proof, method, uri, accessToken string, now time.Time) (DPoPProof, error) {
	key, claims, err := selfSigned(proof, typDPoP, now)
	if err != nil {
		return DPoPProof{}, err
	}
	htm, _ := claims["htm"].(string)
	htu, _ := claims["htu"].(string)
	jti, _ := claims["jti"].(string)
	switch {
	case htm != method:
		return DPoPProof{}, fmt.Errorf("%w: htm %q, want %s", ErrProof, htm, method)
	case !sameResource(htu, uri):
		return DPoPProof{}, fmt.Errorf("%w: htu %q, want %s", ErrProof, htu, uri)
	case jti == "" || len(jti) > 256:
		return DPoPProof{}, fmt.Errorf("%w: jti missing or too long", ErrProof)
	}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		if ath, _ := claims["ath"].(string); ath != b64(sum[:]) {
			return DPoPProof{}, fmt.Errorf("%w: ath does not match the access token", ErrProof)
		}
	}
	return DPoPProof{Key: key, JTI: jti}, nil
}

// selfSigned verifies a compact JWS signed by the key of its own jwk header and checks its typ
// and iat; it returns that key and the claims.
func selfSigned(token, typ string, now time.Time) (HolderKey, jwt.MapClaims, error) {
	var key HolderKey
	claims := jwt.MapClaims{}
	parser := jwt.NewParser(jwt.WithValidMethods([]string{jwt.SigningMethodES256.Alg()}),
		jwt.WithTimeFunc(func() time.Time { return now }), jwt.WithLeeway(ProofClockSkew))
	_, err := parser.ParseWithClaims(token, claims, func(t *jwt.Token) (any, error) {
		if t.Header["typ"] != typ {
			return nil, fmt.Errorf("typ %v, want %s", t.Header["typ"], typ)
		}
		for _, h := range []string{"kid", "x5c", "crit"} {
			if _, ok := t.Header[h]; ok {
				return nil, fmt.Errorf("header %s is not supported beside jwk", h)
			}
		}
		raw, _ := t.Header["jwk"].(map[string]any)
		k, err := ParseHolderJWK(raw)
		if err != nil {
			return nil, err
		}
		key = k
		return k.Public, nil
	})
	if err != nil {
		return HolderKey{}, nil, fmt.Errorf("%w: %v", ErrProof, err)
	}
	iat, err := claims.GetIssuedAt()
	if err != nil || iat == nil {
		return HolderKey{}, nil, fmt.Errorf("%w: iat is missing", ErrProof)
	}
	if now.Sub(iat.Time) > ProofMaxAge || iat.Time.Sub(now) > ProofClockSkew {
		return HolderKey{}, nil, fmt.Errorf("%w: iat %s is not within the accepted window", ErrProof, iat.Time.UTC().Format(time.RFC3339))
	}
	return key, claims, nil
}

// sameResource compares two HTTP URIs as RFC 9449 §4.3 asks: scheme and host case-insensitive,
// the path exactly, query and fragment ignored.
func sameResource(a, b string) bool {
	ua, errA := url.Parse(a)
	ub, errB := url.Parse(b)
	if errA != nil || errB != nil || ua.Host == "" {
		return false
	}
	path := func(u *url.URL) string {
		if u.Path == "" {
			return "/"
		}
		return u.Path
	}
	return strings.EqualFold(ua.Scheme, ub.Scheme) && strings.EqualFold(ua.Host, ub.Host) && path(ua) == path(ub)
}
