package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
)

// lockedBuffer is a bytes.Buffer safe to read while the flusher goroutine writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *lockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

func TestLogWriterKeepsEveryLineInOrderAndFlushesWhenFull(t *testing.T) {
	var out lockedBuffer
	w := newLogWriter(&out)
	var want strings.Builder
	for i := range 3 {
		line := strings.Repeat("x", i+1) + "\n"
		want.WriteString(line)
		w.Write([]byte(line))
	}
	w.Flush()
	if out.String() != want.String() {
		t.Fatalf("flushed %q, want %q", out.String(), want.String())
	}
	big := strings.Repeat("y", 70<<10) + "\n" // more than the buffer: written through at once
	w.Write([]byte(big))
	if !strings.HasSuffix(out.String(), big) {
		t.Fatal("a record larger than the buffer was held back")
	}
}
