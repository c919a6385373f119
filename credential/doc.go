// Package credential is the issuer side of the identity credential in open standards:
// SD-JWT (RFC 9901) as an SD-JWT VC (draft-ietf-oauth-sd-jwt-vc, typ dc+sd-jwt) whose
// revocation is published as an IETF Token Status List (draft-ietf-oauth-status-list,
// typ statuslist+jwt). Signatures are ES256 (P-256) only and disclosure digests sha-256.
// For presentations (OpenID4VP 1.0) it is also the verifier: the DCQL query, the signed request
// object, the response encryption key and the check of an SD-JWT+KB presentation.
package credential

import "errors"

// Errors returned by Verify (and, where they apply, Disclosed, Present and DecodeStatusList);
// test for them with errors.Is.
var (
	// ErrSignature: no key matches the kid, the algorithm is not ES256, or the signature is wrong.
	ErrSignature = errors.New("credential: bad signature")
	// ErrExpired: the credential is outside its validity period (exp passed, or nbf not reached).
	ErrExpired = errors.New("credential: expired")
	// ErrDisclosure: a disclosure is unreadable, repeated, or not referenced by a digest in _sd.
	ErrDisclosure = errors.New("credential: bad disclosure")
	// ErrMalformed: the input is not a compact SD-JWT VC this package can read.
	ErrMalformed = errors.New("credential: malformed")
)
