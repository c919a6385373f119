package faults

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/tracing/localview"
)

// One person's sign-up, followed across processes (issue 39): the real api and worker binaries
// export to an OTLP/HTTP receiver, WhatsApp refuses the first delivery, and one trace holds the
// request's server span, its Postgres and Redis client spans, both runs of otp:send under the
// enqueue, and both WhatsApp calls. No span carries the person's name, e-mail, phone, code or token.
func TestOneTraceFollowsASignUpThroughTheJobAndItsRetry(t *testing.T) {
	t.Parallel()
	_, dsn := pgtest.New(t)
	redis := startRedis(t)
	graph := newFakeGraph(t)
	graph.setDown(true)
	collector := &localview.Collector{}
	otlp := httptest.NewServer(collector)
	t.Cleanup(otlp.Close)
	env := merge(map[string]string{"DATABASE_URL": dsn, "REDIS_URL": redis.url(),
		"OTEL_EXPORTER_OTLP_ENDPOINT": otlp.URL, "OTEL_BSP_SCHEDULE_DELAY": "100", "OTEL_TRACES_SAMPLER": "always_on"}, graph.env())
	api := startAPI(t, env)
	run(t, "worker", env)

	person := nextRegistration()
	status, reg := api.post("/api/register", person)
	require.Equal(t, http.StatusCreated, status)
	go func() { // the provider comes back after refusing the first delivery
		require.Eventually(t, func() bool { graph.mu.Lock(); defer graph.mu.Unlock(); return graph.requests >= 1 }, 30*time.Second, 20*time.Millisecond)
		graph.setDown(false)
	}()

	var signUp localview.Span
	var trace []localview.Span
	require.Eventually(t, func() bool {
		for _, s := range collector.Spans() {
			if s.Name == "POST /api/register" && s.Service == "perfilseguro-api" {
				signUp = s
			}
		}
		if signUp.TraceID == "" {
			return false
		}
		trace = collector.Trace(signUp.TraceID)
		return len(named(trace, "whatsapp POST")) >= 2 && len(named(trace, "process otp:send")) >= 2
	}, 60*time.Second, 100*time.Millisecond, "the retried delivery joins the sign-up's trace")
	t.Logf("the sign-up's trace:\n%s", localview.Tree(trace))

	require.Equal(t, "SERVER", signUp.Kind)
	require.Equal(t, "POST /api/register", signUp.Attributes["http.route"])
	require.NotEmpty(t, where(trace, func(s localview.Span) bool {
		return s.Kind == "CLIENT" && s.Attributes["db.system.name"] == "postgresql" && s.Service == "perfilseguro-api"
	}), "the API's statements")
	require.NotEmpty(t, where(trace, func(s localview.Span) bool { return s.Kind == "CLIENT" && s.Attributes["db.system"] == "redis" }),
		"Redis commands (rate limits, the enqueue)")
	sends := named(trace, "send otp:send")
	require.Len(t, sends, 1)
	require.Equal(t, "PRODUCER", sends[0].Kind)
	runs := named(trace, "process otp:send")
	require.Len(t, runs, 2, "the failed run and its retry")
	retries := []string{}
	for _, r := range runs {
		require.Equal(t, "CONSUMER", r.Kind)
		require.Equal(t, "perfilseguro-worker", r.Service)
		require.Equal(t, sends[0].SpanID, r.ParentID, "each run hangs from the enqueue")
		retries = append(retries, r.Attributes["asynq.retry"])
	}
	slices.Sort(retries)
	require.Equal(t, []string{"0", "1"}, retries)
	calls := named(trace, "whatsapp POST")
	require.Len(t, calls, 2)
	failed := where(calls, func(s localview.Span) bool { return s.Failed })
	require.Len(t, failed, 1, "the refused call is marked failed")
	for _, c := range calls {
		require.True(t, slices.ContainsFunc(runs, func(r localview.Span) bool { return r.SpanID == c.ParentID }),
			"each call belongs to a run of the job")
	}

	// Nothing personal in any span of any process: names, attributes, resource.
	secrets := []string{person["fullName"], person["email"], person["phoneNumber"], reg["verificationCode"].(string), reg["sessionToken"].(string)}
	for _, s := range collector.Spans() {
		text := s.Name + fmt.Sprint(s.Attributes)
		for _, secret := range secrets {
			require.NotContains(t, text, secret, "span %q", s.Name)
		}
	}

	// A refused request's requestId is its trace ID: support finds the trace from a screenshot.
	status, body := api.post("/api/register", map[string]string{"fullName": "x"})
	require.Equal(t, http.StatusBadRequest, status)
	id, _ := body["requestId"].(string)
	require.Len(t, id, 32)
	require.Eventually(t, func() bool {
		return slices.ContainsFunc(collector.Trace(id), func(s localview.Span) bool { return strings.HasPrefix(s.Name, "POST /api/register") })
	}, 10*time.Second, 100*time.Millisecond)
}

func named(spans []localview.Span, name string) []localview.Span {
	return where(spans, func(s localview.Span) bool { return s.Name == name })
}

func where(spans []localview.Span, keep func(localview.Span) bool) []localview.Span {
	var out []localview.Span
	for _, s := range spans {
		if keep(s) {
			out = append(out, s)
		}
	}
	return out
}
