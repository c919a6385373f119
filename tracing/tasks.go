package tracing

import (
	"context"

	"github.com/hibiken/asynq"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// TaskEnqueuer is asynq.Client's EnqueueContext (jobs.Enqueuer).
type TaskEnqueuer interface {
	EnqueueContext(ctx context.Context, task *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error)
}

// Enqueuer wraps q so that each enqueue is a producer span whose context travels with the task in
// its headers (asynq keeps a task's headers with its message, across retries). Tasks made by
// package jobs carry a header map for it; a task without one is enqueued untouched.
func Enqueuer(q TaskEnqueuer) TaskEnqueuer {
	if !Enabled() {
		return q
	}
	return tracedEnqueuer{q}
}

type tracedEnqueuer struct{ next TaskEnqueuer }

func (t tracedEnqueuer) EnqueueContext(ctx context.Context, task *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error) {
	ctx, span := Tracer().Start(ctx, "send "+task.Type(), trace.WithSpanKind(trace.SpanKindProducer),
		trace.WithAttributes(attribute.String("messaging.system", "asynq"), attribute.String("messaging.operation.type", "send"),
			attribute.String("messaging.destination.name", task.Type())))
	defer span.End()
	if h := task.Headers(); h != nil {
		otel.GetTextMapPropagator().Inject(ctx, propagation.MapCarrier(h))
	}
	info, err := t.next.EnqueueContext(ctx, task, opts...)
	if err != nil {
		Fail(span, err)
		return info, err
	}
	span.SetAttributes(attribute.String("messaging.message.id", info.ID), attribute.String("asynq.queue", info.Queue))
	return info, nil
}

// Tasks is the worker's middleware: each run of a task is a consumer span whose parent is the
// span that enqueued it, so every attempt of a retried task sits under the same enqueue, numbered
// by asynq.retry. A task enqueued by an older binary, without headers, starts a trace of its own.
func Tasks(next asynq.Handler) asynq.Handler {
	return asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) error {
		if !Enabled() {
			return next.ProcessTask(ctx, t)
		}
		if h := t.Headers(); len(h) > 0 {
			ctx = otel.GetTextMapPropagator().Extract(ctx, propagation.MapCarrier(h))
		}
		id, _ := asynq.GetTaskID(ctx)
		retry, _ := asynq.GetRetryCount(ctx)
		queue, _ := asynq.GetQueueName(ctx)
		ctx, span := Tracer().Start(ctx, "process "+t.Type(), trace.WithSpanKind(trace.SpanKindConsumer),
			trace.WithAttributes(attribute.String("messaging.system", "asynq"), attribute.String("messaging.operation.type", "process"),
				attribute.String("messaging.destination.name", t.Type()), attribute.String("messaging.message.id", id),
				attribute.String("asynq.queue", queue), attribute.Int("asynq.retry", retry)))
		defer span.End()
		err := next.ProcessTask(ctx, t)
		Fail(span, err)
		return err
	})
}

// Tick is the root span of one scheduler tick: what it enqueues becomes part of its trace.
func Tick(ctx context.Context, entry string) (context.Context, func(error)) {
	if !Enabled() {
		return ctx, func(error) {}
	}
	ctx, span := Tracer().Start(ctx, "tick "+entry, trace.WithNewRoot(), trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(attribute.String("scheduler.entry", entry)))
	return ctx, func(err error) {
		Fail(span, err)
		span.End()
	}
}
