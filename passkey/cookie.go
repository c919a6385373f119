package passkey

import (
	"net/http"

	"github.com/perfilseguro/perfilseguro/secure"
)

// CookieName is the browser cookie that binds a ceremony to the browser that began it.
const CookieName = "ps_webauthn"

// ValidSessionKey reports whether v looks like a key SessionKey made (64 hex characters).
func ValidSessionKey(v string) bool { return secure.IsToken(v, 32) }

// SessionKey is the browser's ceremony key: the one its cookie already holds, or a new random
// one sent with w (HttpOnly, SameSite=Lax, Secure when secure, for ChallengeLifetime). Keeping
// the key lets one browser run two ceremonies at once (the sign-in page's autofill and its
// button); each finishes against its own challenge.
func SessionKey(w http.ResponseWriter, r *http.Request, secureCookie bool) string {
	key := SessionKeyFrom(r)
	if key == "" {
		key = secure.NewToken(32)
	}
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: key, Path: "/", HttpOnly: true, Secure: secureCookie,
		SameSite: http.SameSiteLaxMode, MaxAge: int(ChallengeLifetime.Seconds())})
	return key
}

// SessionKeyFrom is the ceremony key the request's cookie holds ("" when none is valid).
func SessionKeyFrom(r *http.Request) string {
	c, err := r.Cookie(CookieName)
	if err != nil || !ValidSessionKey(c.Value) {
		return ""
	}
	return c.Value
}
