package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/jobs"
)

// taskSink keeps the verify:log tasks it is given, or refuses them.
type taskSink struct {
	mu    sync.Mutex
	tasks [][]jobs.VerifyLogEntry
	fail  bool
}

func (s *taskSink) EnqueueContext(_ context.Context, task *asynq.Task, _ ...asynq.Option) (*asynq.TaskInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail {
		return nil, errors.New("redis down")
	}
	var p jobs.VerifyLogPayload
	if err := json.Unmarshal(task.Payload(), &p); err != nil {
		return nil, err
	}
	s.tasks = append(s.tasks, p.Entries)
	return &asynq.TaskInfo{}, nil
}

func (s *taskSink) entries() (tasks, lookups int, ids map[string]int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids = map[string]int{}
	for _, t := range s.tasks {
		for _, e := range t {
			ids[e.RequestID]++
			lookups++
		}
	}
	return len(s.tasks), lookups, ids
}

func lookup(i int) jobs.VerifyLogEntry {
	return jobs.VerifyLogEntry{RequestID: fmt.Sprintf("lookup-%d", i), IDValidado: "PS-1234-5678-90", ScannedAt: time.Now()}
}

func TestLookupRecorderBatchesABurstAndQueuesEachLookupOnce(t *testing.T) {
	sink := &taskSink{}
	r := newLookupRecorder(sink, slog.New(slog.NewTextHandler(io.Discard, nil)))
	for i := range 450 {
		r.record(lookup(i))
	}
	r.close() // queues what is still gathered
	tasks, lookups, ids := sink.entries()
	assert.Equal(t, 450, lookups)
	assert.Len(t, ids, 450, "every lookup once")
	assert.LessOrEqual(t, tasks, 10, "a burst rides in a few tasks, not one per lookup")
	for _, task := range sink.tasks {
		assert.LessOrEqual(t, len(task), jobs.MaxVerifyLogBatch)
	}
}

func TestLookupRecorderQueuesAnIdleLookupWithoutWaitingForMore(t *testing.T) {
	sink := &taskSink{}
	r := newLookupRecorder(sink, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer r.close()
	r.record(lookup(1))
	require.Eventually(t, func() bool { _, n, _ := sink.entries(); return n == 1 }, 5*time.Second, time.Millisecond,
		"a lone lookup is queued after the linger, not held until another comes")
}

func TestLookupRecorderLogsWhatItCouldNotQueue(t *testing.T) {
	sink := &taskSink{fail: true}
	var buf syncBuffer
	r := newLookupRecorder(sink, slog.New(slog.NewTextHandler(&buf, nil)))
	r.record(lookup(7))
	r.close()
	assert.Contains(t, buf.String(), "verification lookup not queued")
	assert.Contains(t, buf.String(), "lookup_id=lookup-7")
}

// syncBuffer is a bytes buffer safe for the recorder's goroutine and the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	return len(p), nil
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
