package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/admission"
	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/jobs"
)

// TestPastCapacityRequestsAreRefusedAtOnceByPriority: with the work in progress filling a fixed
// limit of 10 (the test holds the places itself), a sign-up is refused first (past 70 %), then
// other requests (past 90 %), while public verification, status polls and health checks still get
// in; each refusal is a 503 with Retry-After and the Spanish message, having written nothing and
// queued nothing, and /metrics counts it.
func TestPastCapacityRequestsAreRefusedAtOnceByPriority(t *testing.T) {
	t.Parallel()
	limiter := admission.New(admission.Config{InitialLimit: 10, MinLimit: 10, MaxLimit: 10})
	e := setup(t, func(d *api.Deps) { d.Admission = limiter })
	validated := time.Now()
	id, pid := seedUser(t, e.db, seeded{Level: 3, Validated: &validated})
	person := e.signedIn(t, id)
	register := func(phone string) reply {
		return e.send(t, anonymous(), "POST", "/api/register", map[string]string{"fullName": "Ana López",
			"email": "ana" + phone + "@example.com", "phoneNumber": phone})
	}
	require.Equal(t, http.StatusCreated, register("5512349001").Status, "room: admitted")

	hold := func(n int, p admission.Priority) []admission.Ticket {
		var ts []admission.Ticket
		for range n {
			tk, ok := limiter.Acquire(p)
			require.True(t, ok)
			ts = append(ts, tk)
		}
		return ts
	}
	held := hold(7, admission.High)
	start := time.Now()
	r := register("5512349002")
	require.Equal(t, http.StatusServiceUnavailable, r.Status, string(r.Body))
	require.Less(t, time.Since(start), time.Second, "refused at once")
	require.Equal(t, "5", r.Header.Get("Retry-After"))
	require.Equal(t, "no-store", r.Header.Get("Cache-Control"))
	require.Equal(t, "Hay mucha demanda en este momento. Intenta nuevamente en unos segundos.", r.JSON(t)["message"])
	require.Equal(t, http.StatusServiceUnavailable, e.send(t, anonymous(), "POST", "/api/login",
		map[string]string{"phoneNumber": "5512349001"}).Status, "code sends too")

	var users int
	require.NoError(t, e.db.Get(&users, `SELECT count(*) FROM users WHERE phone_number LIKE '+52551234900%'`))
	require.Equal(t, 1, users, "the refused sign-up wrote nothing")
	require.Len(t, e.pendingTasks(t, jobs.QueueCritical), 1, "and queued no code (the admitted one's only)")

	// 7 of 10 in progress: an ordinary request (own profile) still fits under 9.
	require.Equal(t, http.StatusOK, e.send(t, person, "GET", "/api/users/"+strconvFormat(id), nil).Status)
	held = append(held, hold(2, admission.High)...) // 9 of 10
	require.Equal(t, http.StatusServiceUnavailable, e.send(t, person, "GET", "/api/users/"+strconvFormat(id), nil).Status)
	res, _ := get(t, anonymous(), e.srv.URL+"/api/verify/"+pid)
	require.Equal(t, http.StatusOK, res.StatusCode, "public verification takes the last place")
	require.Equal(t, http.StatusOK, e.send(t, person, "GET", "/api/users/"+strconvFormat(id)+"/verification-status", nil).Status,
		"a status poll too")

	held = append(held, hold(1, admission.High)...) // full
	res, _ = get(t, anonymous(), e.srv.URL+"/api/verify/"+pid)
	require.Equal(t, http.StatusServiceUnavailable, res.StatusCode, "a full limit refuses even public verification")
	res, _ = get(t, anonymous(), e.srv.URL+"/healthz")
	require.Equal(t, http.StatusOK, res.StatusCode, "health checks are never refused")
	res, _ = get(t, anonymous(), e.srv.URL+"/readyz")
	require.Equal(t, http.StatusOK, res.StatusCode)

	for _, tk := range held {
		limiter.Done(tk)
	}
	require.Equal(t, http.StatusCreated, register("5512349003").Status, "places given back: admitted again")
	require.Zero(t, limiter.Stats().Inflight, "every admitted request gave its place back")

	metrics := string(e.send(t, e.adminClient(t), "GET", "/metrics", nil).Body)
	for _, want := range []string{`perfilseguro_admission_refused_total{priority="low"} 2`,
		`perfilseguro_admission_refused_total{priority="normal"} 1`, `perfilseguro_admission_refused_total{priority="high"} 1`,
		"perfilseguro_admission_limit 10"} {
		require.True(t, strings.Contains(metrics, want+"\n"), "metrics lack %q", want)
	}
}

// TestAdmissionControlOff: ADMISSION_CONTROL=off leaves no limit and no admission metrics.
func TestAdmissionControlOff(t *testing.T) {
	t.Parallel()
	e := setup(t, func(d *api.Deps) { d.Config.AdmissionControl = false })
	metrics := string(e.send(t, e.adminClient(t), "GET", "/metrics", nil).Body)
	require.NotContains(t, metrics, "perfilseguro_admission_limit")
	on := setup(t)
	require.Contains(t, string(on.send(t, on.adminClient(t), "GET", "/metrics", nil).Body), "perfilseguro_admission_limit 100\n",
		"on by default, starting at 100")
}
