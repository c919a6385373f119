package credential

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// The verifier side of a presentation (OpenID4VP 1.0 with dc+sd-jwt): an SD-JWT VC with the
// disclosures the holder chose and a Key Binding JWT (RFC 9901 §4.3, "SD-JWT+KB"). The KB-JWT
// proves that whoever presents holds the key the credential is bound to (cnf.jwk), for this
// verifier (aud), this transaction (nonce), now (iat), and these disclosures (sd_hash): a
// presentation captured elsewhere cannot be replayed here.

// typKeyBinding is the JOSE typ of a Key Binding JWT (RFC 9901 §4.3).
const typKeyBinding = "kb+jwt"

// ErrKeyBinding: the Key Binding JWT is missing, not signed by the credential's cnf.jwk, or
// names another audience, nonce, time or set of disclosures.
var ErrKeyBinding = errors.New("credential: bad key binding")

// PresentationCheck is what a verifier expects of one presentation.
type PresentationCheck struct {
	Keys     []Key         // issuer keys, found by kid
	Issuer   string        // iss
	VCT      string        // vct
	Audience string        // the verifier's client_id, the KB-JWT's aud
	Nonce    string        // the request's nonce, the KB-JWT's nonce
	Now      time.Time     // against exp of the credential and iat of the KB-JWT
	Leeway   time.Duration // how far iat may be from Now, either way
}

// Presented is a verified presentation.
type Presented struct {
	Claims    map[string]any // the payload with the disclosed claims in place (as Verify returns)
	StatusURI string         // status.status_list.uri: the verifier still has to check revocation
	StatusIdx int            // status.status_list.idx
}

// VerifyPresentation checks an SD-JWT+KB: the issuer's signature, validity and disclosures as
// Verify does, iss and vct, and the Key Binding JWT against the credential's cnf.jwk, the
// audience, the nonce, the time and the hash of what was presented. Errors wrap ErrMalformed,
// ErrSignature, ErrExpired, ErrDisclosure or ErrKeyBinding.
func VerifyPresentation(presentation string, want PresentationCheck) (Presented, error) {
	presentation = strings.TrimSpace(presentation)
	cut := strings.LastIndexByte(presentation, '~')
	if cut < 0 {
		return Presented{}, fmt.Errorf("verify presentation: %w: not an SD-JWT", ErrMalformed)
	}
	sdjwt, kb := presentation[:cut+1], presentation[cut+1:]
	if kb == "" {
		return Presented{}, fmt.Errorf("verify presentation: %w: no key binding JWT", ErrKeyBinding)
	}
	claims, err := Verify(sdjwt, want.Keys, want.Now)
	if err != nil {
		return Presented{}, fmt.Errorf("verify presentation: %w", err)
	}
	if claims["iss"] != want.Issuer || claims["vct"] != want.VCT {
		return Presented{}, fmt.Errorf("verify presentation: %w: iss %v / vct %v is not this credential", ErrMalformed, claims["iss"], claims["vct"])
	}
	holder, err := holderOf(claims)
	if err != nil {
		return Presented{}, fmt.Errorf("verify presentation: %w", err)
	}
	if err := checkKeyBinding(kb, holder, sdjwt, want); err != nil {
		return Presented{}, fmt.Errorf("verify presentation: %w", err)
	}
	out := Presented{Claims: claims}
	if out.StatusURI, out.StatusIdx, err = statusOf(claims); err != nil {
		return Presented{}, fmt.Errorf("verify presentation: %w", err)
	}
	return out, nil
}

// holderOf reads cnf.jwk: a credential without one cannot be presented with key binding.
func holderOf(claims map[string]any) (HolderKey, error) {
	cnf, _ := claims["cnf"].(map[string]any)
	jwk, _ := cnf["jwk"].(map[string]any)
	if jwk == nil {
		return HolderKey{}, fmt.Errorf("%w: the credential is bound to no key (no cnf.jwk)", ErrKeyBinding)
	}
	key, err := ParseHolderJWK(jwk)
	if err != nil {
		return HolderKey{}, fmt.Errorf("%w: cnf.jwk: %v", ErrKeyBinding, err)
	}
	return key, nil
}

// kbClaims are the Key Binding JWT's claims (RFC 9901 §4.3).
type kbClaims struct {
	Iat    *float64 `json:"iat"`
	Aud    string   `json:"aud"`
	Nonce  string   `json:"nonce"`
	SDHash string   `json:"sd_hash"`
}

// checkKeyBinding verifies the KB-JWT as RFC 9901 §7.3 asks: typ, ES256 signature by the
// holder's key, aud, nonce, iat within the leeway and sd_hash over the presented SD-JWT.
func checkKeyBinding(kb string, holder HolderKey, sdjwt string, want PresentationCheck) error {
	segments := strings.Split(kb, ".")
	if len(segments) != 3 {
		return fmt.Errorf("%w: the key binding JWT has %d parts, want 3", ErrKeyBinding, len(segments))
	}
	var decoded [3][]byte
	for n, seg := range segments {
		b, err := base64.RawURLEncoding.DecodeString(seg)
		if err != nil {
			return fmt.Errorf("%w: key binding JWT part %d is not base64url", ErrKeyBinding, n+1)
		}
		decoded[n] = b
	}
	var h joseHeader
	if err := json.Unmarshal(decoded[0], &h); err != nil || h.Typ != typKeyBinding || h.Crit != nil ||
		h.Alg != jwt.SigningMethodES256.Alg() {
		return fmt.Errorf("%w: header must be typ %s, alg ES256, no crit", ErrKeyBinding, typKeyBinding)
	}
	if err := jwt.SigningMethodES256.Verify(segments[0]+"."+segments[1], decoded[2], holder.Public); err != nil {
		return fmt.Errorf("%w: not signed by the credential's key: %v", ErrKeyBinding, err)
	}
	var c kbClaims
	if err := json.Unmarshal(decoded[1], &c); err != nil {
		return fmt.Errorf("%w: payload is not the expected JSON object", ErrKeyBinding)
	}
	if c.Aud == "" || c.Aud != want.Audience {
		return fmt.Errorf("%w: aud %q is not this verifier", ErrKeyBinding, c.Aud)
	}
	if c.Nonce == "" || subtle.ConstantTimeCompare([]byte(c.Nonce), []byte(want.Nonce)) != 1 {
		return fmt.Errorf("%w: nonce is not this request's", ErrKeyBinding)
	}
	if c.Iat == nil {
		return fmt.Errorf("%w: no iat", ErrKeyBinding)
	}
	iat, ok := numericDate(*c.Iat)
	if !ok || iat.Sub(want.Now).Abs() > want.Leeway {
		return fmt.Errorf("%w: iat %s is not within %s of now", ErrKeyBinding, iat.UTC().Format(time.RFC3339), want.Leeway)
	}
	sum := sha256.Sum256([]byte(sdjwt)) // _sd_alg is sha-256, the only one Verify accepts
	if subtle.ConstantTimeCompare([]byte(c.SDHash), []byte(b64(sum[:]))) != 1 {
		return fmt.Errorf("%w: sd_hash does not match what was presented", ErrKeyBinding)
	}
	return nil
}

// statusOf reads status.status_list (draft-ietf-oauth-status-list §6.1): every credential this
// issuer signs has one.
func statusOf(claims map[string]any) (string, int, error) {
	status, _ := claims["status"].(map[string]any)
	list, _ := status["status_list"].(map[string]any)
	uri, _ := list["uri"].(string)
	idx, ok := list["idx"].(float64)
	if uri == "" || !ok || idx < 0 || idx != float64(int(idx)) {
		return "", 0, fmt.Errorf("%w: status.status_list is missing or malformed", ErrMalformed)
	}
	return uri, int(idx), nil
}
