package tracing_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/tracing"
	"github.com/perfilseguro/perfilseguro/tracing/tracingtest"
)

// capture is an asynq client that keeps what it was given, as Redis would.
type capture struct{ tasks []*asynq.Task }

func (c *capture) EnqueueContext(_ context.Context, task *asynq.Task, _ ...asynq.Option) (*asynq.TaskInfo, error) {
	// Redis keeps the headers as they were at the enqueue: copy them, as asynq's message does.
	c.tasks = append(c.tasks, asynq.NewTaskWithHeaders(task.Type(), task.Payload(), task.Headers()))
	return &asynq.TaskInfo{ID: "t1", Queue: "low"}, nil
}

func byName(spans []sdktrace.ReadOnlySpan, name string) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range spans {
		if s.Name() == name {
			out = append(out, s)
		}
	}
	return out
}

func TestOffIsPassThrough(t *testing.T) {
	require.False(t, tracing.Enabled(), "no OTEL_EXPORTER_OTLP_ENDPOINT in tests")
	q := &capture{}
	require.Same(t, q, tracing.Enqueuer(q), "tracing off: the enqueuer is not wrapped")
	task, err := jobs.NewHeartbeatTask("tick", "test")
	require.NoError(t, err)
	require.NoError(t, jobs.Enqueue(t.Context(), tracing.Enqueuer(q), task, nil))
	require.Empty(t, q.tasks[0].Headers(), "no trace context written when tracing is off")
}

func TestATaskCarriesItsTraceToEveryRun(t *testing.T) {
	rec := tracingtest.Record(t)
	q := &capture{}
	ctx, request := tracing.Tracer().Start(t.Context(), "POST /api/register", trace.WithSpanKind(trace.SpanKindServer))
	task, err := jobs.NewHeartbeatTask("tick", "test")
	require.NoError(t, err)
	require.NoError(t, jobs.Enqueue(ctx, tracing.Enqueuer(q), task, nil))
	request.End()
	require.Contains(t, q.tasks[0].Headers(), "traceparent")

	// Two runs, as a failed first attempt and its retry: both under the enqueue, in its trace.
	fails := true
	handler := tracing.Tasks(asynq.HandlerFunc(func(ctx context.Context, _ *asynq.Task) error {
		require.True(t, trace.SpanContextFromContext(ctx).IsValid(), "the handler runs inside the consumer span")
		if fails {
			fails = false
			return errors.New("provider down")
		}
		return nil
	}))
	require.Error(t, handler.ProcessTask(t.Context(), q.tasks[0]))
	require.NoError(t, handler.ProcessTask(t.Context(), q.tasks[0]))

	spans := rec.Ended()
	send := byName(spans, "send "+jobs.TypeHeartbeat)
	require.Len(t, send, 1)
	require.Equal(t, trace.SpanKindProducer, send[0].SpanKind())
	require.Equal(t, request.SpanContext().SpanID(), send[0].Parent().SpanID())
	runs := byName(spans, "process "+jobs.TypeHeartbeat)
	require.Len(t, runs, 2)
	for _, run := range runs {
		require.Equal(t, trace.SpanKindConsumer, run.SpanKind())
		require.Equal(t, request.SpanContext().TraceID(), run.SpanContext().TraceID())
		require.Equal(t, send[0].SpanContext().SpanID(), run.Parent().SpanID(), "each run's parent is the enqueue")
	}
	require.Equal(t, codes.Error, runs[0].Status().Code, "the failed run says so")
	require.Equal(t, codes.Unset, runs[1].Status().Code)
}

// A task enqueued by a binary from before tracing has no headers: it runs, in a trace of its own.
func TestATaskFromAnOlderBinaryStillRuns(t *testing.T) {
	rec := tracingtest.Record(t)
	ran := false
	old := asynq.NewTask(jobs.TypeHeartbeat, []byte(`{"tick":"t","source":"old"}`))
	err := tracing.Tasks(asynq.HandlerFunc(func(context.Context, *asynq.Task) error { ran = true; return nil })).
		ProcessTask(t.Context(), old)
	require.NoError(t, err)
	require.True(t, ran)
	runs := byName(rec.Ended(), "process "+jobs.TypeHeartbeat)
	require.Len(t, runs, 1)
	require.False(t, runs[0].Parent().IsValid(), "no parent to continue: a root span")
}

func TestProviderCallsAreClientSpansWithoutPathOrQuery(t *testing.T) {
	rec := tracingtest.Record(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		require.Empty(t, r.Header.Get("traceparent"), "the trace context is not sent to providers")
		w.WriteHeader(http.StatusBadGateway)
	}))
	defer srv.Close()
	client := &http.Client{Transport: tracing.Transport("whatsapp", nil)}

	// Outside any trace (a pool's check, a background loop): no span.
	res, err := client.Get(srv.URL + "/v21.0/1000/messages?access_token=secreto")
	require.NoError(t, err)
	res.Body.Close()
	require.Empty(t, rec.Ended())

	ctx, job := tracing.Tracer().Start(t.Context(), "process otp:send")
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/v21.0/1000/messages?access_token=secreto", nil)
	res, err = client.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	job.End()
	calls := byName(rec.Ended(), "whatsapp POST")
	require.Len(t, calls, 1)
	require.Equal(t, trace.SpanKindClient, calls[0].SpanKind())
	require.Equal(t, codes.Error, calls[0].Status().Code)
	for _, a := range calls[0].Attributes() {
		require.NotContains(t, a.Value.Emit(), "secreto")
		require.NotContains(t, a.Value.Emit(), "/v21.0")
	}
	require.Contains(t, calls[0].Attributes(), attribute.Int("http.response.status_code", http.StatusBadGateway))
}

func TestSchedulerTicksAreRoots(t *testing.T) {
	rec := tracingtest.Record(t)
	ctx, parent := tracing.Tracer().Start(t.Context(), "unrelated")
	_, end := tracing.Tick(ctx, "heartbeat")
	end(nil)
	parent.End()
	ticks := byName(rec.Ended(), "tick heartbeat")
	require.Len(t, ticks, 1)
	require.False(t, ticks[0].Parent().IsValid())
}
