package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/jobs"
)

// queuedOTPs lists every pending otp:send job's payload.
func (e *env) queuedOTPs(t *testing.T) []jobs.SendOTPPayload {
	t.Helper()
	insp := asynq.NewInspector(e.asynqOpt)
	defer insp.Close()
	tasks, err := insp.ListPendingTasks(jobs.QueueCritical, asynq.PageSize(500))
	require.NoError(t, err)
	var out []jobs.SendOTPPayload
	for _, task := range tasks {
		var p jobs.SendOTPPayload
		require.NoError(t, json.Unmarshal(task.Payload, &p))
		out = append(out, p)
	}
	return out
}

// queuedDestinations lists where every pending otp:send job would deliver.
func (e *env) queuedDestinations(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, p := range e.queuedOTPs(t) {
		out = append(out, p.Destination)
	}
	return out
}

// A code goes only to the account's own phone and e-mail: someone who knows a person's phone
// must not receive that person's sign-in code at an e-mail address of their choosing.
func TestCodesGoOnlyToTheAccountsOwnAddresses(t *testing.T) {
	t.Parallel()
	now := time.Now()
	clock := &now
	e := setup(t, func(d *api.Deps) { d.Now = func() time.Time { return *clock } })
	victim := newPerson()
	e.browser(t).signUp(victim)
	attacker := e.browser(t)

	*clock = now.Add(61 * time.Second)
	status, out := attacker.call("POST", "/api/login", map[string]string{"email": "intruso@example.com", "phoneNumber": "+52" + victim.Phone})
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, "Te hemos enviado un código de verificación por WhatsApp.", out["message"])
	require.NotContains(t, e.queuedDestinations(t), "intruso@example.com")
	require.Contains(t, e.queuedDestinations(t), "+52"+victim.Phone)

	// The registration conflict path (widget login from our own app) follows the same rule.
	*clock = now.Add(122 * time.Second)
	req, err := http.NewRequest("POST", e.srv.URL+"/api/widget/login",
		strings.NewReader(`{"email":"otro.intruso@example.com","phoneNumber":"+52`+victim.Phone+`"}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", e.srv.URL)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.NotContains(t, e.queuedDestinations(t), "otro.intruso@example.com")
}
