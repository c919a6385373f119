package api_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
)

// Issue 54, item 25: POST /api/register told anyone, without limit, whether an e-mail or phone
// had an account, with the account's id. The send limits now come before the conflict check, and
// existingUserId is a registration attempt's number that only the following sign-in code takes.
func TestARegistrationConflictIsLimitedAndItsIdOnlyServesTheFollowingSignIn(t *testing.T) {
	t.Parallel()
	e := setup(t, withLimits(func(l *api.Limits) { l.SendPerEmail, l.SendPerPhone, l.SendPerIP = 4, 3, 100 }))
	b := e.browser(t)
	p := newPerson()
	id := b.signUp(p) // one code sent to the e-mail's and the phone's budgets

	var attempts []float64
	for i := 0; i < 2; i++ {
		status, out := b.call("POST", "/api/register", map[string]string{"fullName": "Otra Persona", "email": p.Email,
			"phoneNumber": newPerson().Phone})
		require.Equal(t, http.StatusConflict, status, out)
		attempt := out["existingUserId"].(float64)
		require.NotEqual(t, float64(id), attempt, "never the account's id")
		require.GreaterOrEqual(t, attempt, 1e15)
		require.NotContains(t, attempts, attempt, "one number per attempt")
		attempts = append(attempts, attempt)
	}
	// Nothing but /api/verify-code takes the number, and only with the code of the sign-in that follows.
	other := e.browser(t)
	status, out := other.call("POST", "/api/widget/verify-code", map[string]any{"userId": attempts[0], "code": "123456"})
	require.NotEqual(t, http.StatusOK, status, out)
	status, out = other.call("POST", "/api/verify-code", map[string]any{"userId": attempts[0], "code": "123456"})
	require.Equal(t, http.StatusBadRequest, status, "no code was sent yet: %v", out)
	status, out = other.call("POST", "/api/verify-code", map[string]any{"userId": 1e15 + 7, "code": "123456"})
	require.Equal(t, http.StatusBadRequest, status, out)
	require.Equal(t, "Ese intento de registro ya no es válido. Inicia sesión para recibir un nuevo código.", out["message"])

	status, out = other.call("POST", "/api/login", map[string]string{"email": p.Email})
	require.Equal(t, http.StatusOK, status, out)
	code := e.lastCode(t, id)
	status, out = other.call("POST", "/api/verify-code", map[string]any{"userId": attempts[0], "code": code})
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, float64(id), out["userId"], "signed in to the account the code proved")
	status, out = other.call("POST", "/api/verify-code", map[string]any{"userId": attempts[0], "code": code})
	require.Equal(t, http.StatusBadRequest, status, "an attempt serves once: %v", out)

	// The sign-in spent the e-mail's fourth code of the hour: a fourth asking is refused.
	status, out = b.call("POST", "/api/register", map[string]string{"fullName": "Otra Persona", "email": p.Email,
		"phoneNumber": newPerson().Phone})
	require.Equal(t, http.StatusTooManyRequests, status, "the e-mail's budget is spent before anyone learns more: %v", out)
	require.Contains(t, out["message"], "Demasiadas solicitudes")
	for i := 0; i < 2; i++ {
		status, _ = b.call("POST", "/api/register", map[string]string{"fullName": "Otra Persona", "email": newPerson().Email,
			"phoneNumber": p.Phone})
		require.Equal(t, http.StatusConflict, status)
	}
	status, _ = b.call("POST", "/api/register", map[string]string{"fullName": "Otra Persona", "email": newPerson().Email,
		"phoneNumber": p.Phone})
	require.Equal(t, http.StatusTooManyRequests, status, "and so is the phone's")
}
