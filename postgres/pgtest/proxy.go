package pgtest

import (
	"errors"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"
)

// Proxy is a TCP proxy in front of a Postgres server, playing haproxy during a failover: Down
// breaks every connection and refuses new ones (no primary), Up serves again (a new primary),
// Freeze keeps every connection open and acknowledged but forwards nothing (a backend that froze,
// with haproxy still in front of it), Thaw forwards again. Reject is haproxy with no server up:
// it accepts each connection and closes it at once, until Up.
type Proxy struct {
	t      testing.TB
	target string
	addr   string

	mu     sync.Mutex
	ln     net.Listener // nil while down
	reject bool         // closing each connection it accepts
	conns  map[net.Conn]struct{}
	thawed chan struct{} // closed unless frozen
	cut    chan struct{} // closed (and replaced) when the connections are cut
	delay  time.Duration // added to every byte's way, each direction (SetDelay)
}

// NewProxy starts a proxy to the server of dsn; it stops when the test ends.
func NewProxy(t testing.TB, dsn string) *Proxy {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatalf("pgtest: proxy: %v", err)
	}
	p := &Proxy{t: t, target: u.Host, conns: map[net.Conn]struct{}{}, thawed: make(chan struct{}),
		cut: make(chan struct{})}
	close(p.thawed)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("pgtest: proxy: %v", err)
	}
	p.addr = ln.Addr().String()
	p.serve(ln)
	t.Cleanup(func() { p.Down(); p.Thaw() }) // Thaw lets the frozen pipes see their connections closed
	return p
}

// URL is dsn with its host replaced by the proxy's address.
func (p *Proxy) URL(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		panic(err)
	}
	u.Host = p.addr
	return u.String()
}

// Down closes every proxied connection and stops listening: connections are refused until Up.
func (p *Proxy) Down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	p.cutLocked()
}

// Cut closes every proxied connection but keeps accepting new ones.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cutLocked()
}

func (p *Proxy) cutLocked() {
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
	close(p.cut) // wakes the frozen pipes, whose connections are closed now
	p.cut = make(chan struct{})
}

// Freeze stops forwarding, both ways, on every connection, open or opened meanwhile: the data is
// read (so the sender's kernel sees it acknowledged) and held until Thaw.
func (p *Proxy) Freeze() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.thawed:
		p.thawed = make(chan struct{})
	default: // frozen already
	}
}

// Thaw forwards again, the held data first.
func (p *Proxy) Thaw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.thawed:
	default:
		close(p.thawed)
	}
}

// waitThawed returns when the proxy is not frozen, or its connections were cut.
func (p *Proxy) waitThawed() {
	p.mu.Lock()
	thawed, cut := p.thawed, p.cut
	p.mu.Unlock()
	select {
	case <-thawed:
	case <-cut:
	}
}

// SetDelay makes every byte take d longer on its way, each direction, on the connections opened
// from then on: a Postgres server 2·d of round trip away (a network hop, another zone), without
// limiting how much is in flight.
func (p *Proxy) SetDelay(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.delay = d
}

// Reject closes every proxied connection and, until Up, accepts new ones only to close them.
func (p *Proxy) Reject() {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cutLocked()
	p.reject = true
	p.listenLocked()
}

// Up listens again on the same address, and forwards what it accepts.
func (p *Proxy) Up() {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reject = false
	p.listenLocked()
}

func (p *Proxy) listenLocked() {
	p.t.Helper()
	if p.ln != nil {
		return
	}
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		p.t.Fatalf("pgtest: proxy up: %v", err)
	}
	p.serve(ln)
}

// serve accepts on ln (p.mu held, or p not yet shared) and pipes each connection to the target.
func (p *Proxy) serve(ln net.Listener) {
	p.ln = ln
	go func() {
		for {
			client, err := ln.Accept()
			if errors.Is(err, net.ErrClosed) {
				return
			}
			if err != nil {
				continue
			}
			p.mu.Lock()
			reject := p.reject
			p.mu.Unlock()
			if reject {
				client.Close()
				continue
			}
			server, err := net.Dial("tcp", p.target)
			if err != nil {
				client.Close()
				continue
			}
			p.mu.Lock()
			if p.ln != ln { // went down meanwhile
				p.mu.Unlock()
				client.Close()
				server.Close()
				continue
			}
			p.conns[client], p.conns[server] = struct{}{}, struct{}{}
			delay := p.delay
			p.mu.Unlock()
			go p.pipe(client, server, delay)
			go p.pipe(server, client, delay)
		}
	}()
}

func (p *Proxy) pipe(dst, src net.Conn, delay time.Duration) {
	write := func(b []byte) error { _, err := dst.Write(b); return err }
	flush := func() {}
	if delay > 0 {
		// Each chunk is written delay after it was read, by a goroutine of its own for this
		// direction, so the delay is latency, not a cap on throughput.
		type chunk struct {
			b   []byte
			due time.Time
		}
		chunks, done := make(chan chunk, 4096), make(chan struct{})
		go func() {
			defer close(done)
			for c := range chunks {
				time.Sleep(time.Until(c.due))
				dst.Write(c.b) // an error shows as the other direction's read failing
			}
		}()
		write = func(b []byte) error {
			chunks <- chunk{append([]byte(nil), b...), time.Now().Add(delay)}
			return nil
		}
		flush = func() { close(chunks); <-done }
	}
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.waitThawed()
			if werr := write(buf[:n]); werr != nil {
				break
			}
		}
		if err != nil {
			break
		}
	}
	flush()
	dst.Close()
	src.Close()
	p.mu.Lock()
	delete(p.conns, dst)
	delete(p.conns, src)
	p.mu.Unlock()
}
