// Package passkey runs the WebAuthn ceremonies of Perfil Seguro and keeps what they need in
// Postgres: the registered passkeys (webauthn_credentials) and the ceremonies in progress
// (webauthn_challenges). It serves people (Owner.Kind "user"), administrators ("admin") and the
// users of the partner console ("partner") alike; the HTTP routes, sessions and rate limits stay
// in the api package.
//
// The relying party is PUBLIC_BASE_URL: its host is the RP ID and the URL itself the only origin
// accepted. Registration asks for a discoverable credential (resident key) with user verification,
// attestation "none", ES256 or RS256. Sign-in is discoverable (no allowCredentials: the browser
// offers the owner's passkeys); a re-authentication of a known owner lists that owner's passkeys.
//
// A ceremony is two calls. Begin* stores go-webauthn's SessionData under the SHA-256 of a random
// browser cookie (ps_webauthn, see SessionKey) and returns the options for
// navigator.credentials. Finish* reads the challenge from the browser's answer and consumes the
// matching row in one UPDATE … WHERE used_at IS NULL AND expires_at > now: a challenge works once,
// only for the browser (and owner) that asked for it, and for 5 minutes.
//
// A sign count that does not grow (stored > 0 and new <= stored) marks the credential
// clone_warning and refuses it, then and every time after; passkeys that always report 0 (synced
// ones do) are accepted. Every refusal is a *perfilseguro.Error with a Spanish message and a 4xx
// code, never an internal error.
//
// The user handle given to authenticators is "<kind>:<id>" (e.g. "user:42", "partner:7"):
// stable, free of personal data, and distinct between people, administrators and partner users.
// A sign-in names the kind it accepts: a partner user's passkey never opens the admin panel.
package passkey
