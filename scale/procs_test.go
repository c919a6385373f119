package scale

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/cmd/perfilseguro/bintest"
)

// proc is one perfilseguro process as the Procfile runs it (api, worker or scheduler).
type proc struct {
	t    *testing.T
	sub  string
	env  []string
	cmd  *exec.Cmd
	out  *bytes.Buffer
	port int // api only
}

func startProc(t *testing.T, sub string, env map[string]string) *proc {
	t.Helper()
	p := &proc{t: t, sub: sub}
	// REDIS_URL from the caller's environment would name a second topology: cleared.
	p.env = append(os.Environ(), "APP_ENV=test", "SHUTDOWN_GRACE=5s", "REDIS_URL=")
	for k, v := range env {
		p.env = append(p.env, k+"="+v)
		if k == "HTTP_ADDR" {
			fmt.Sscanf(v[strings.LastIndex(v, ":")+1:], "%d", &p.port)
		}
	}
	p.start()
	t.Cleanup(func() {
		p.signal(syscall.SIGKILL)
		if t.Failed() || os.Getenv("SCALE_DEBUG") != "" {
			t.Logf("%s output (last lines):\n%s", sub, bintest.LastLines(p.out.String(), 30))
		}
		saveLog(sub, p.out.String())
	})
	return p
}

// saveLog writes a process's whole output into SCALE_LOGS, when set, for reading a run afterwards.
func saveLog(name, out string) {
	dir := os.Getenv("SCALE_LOGS")
	if dir == "" {
		return
	}
	if f, err := os.CreateTemp(dir, strings.ReplaceAll(name, " ", "-")+"-*.log"); err == nil {
		f.WriteString(out)
		f.Close()
	}
}

func (p *proc) start() {
	p.cmd = exec.Command(bintest.Path(p.t), p.sub)
	p.cmd.Env = p.env
	p.out = &bytes.Buffer{}
	p.cmd.Stdout, p.cmd.Stderr = syncWriter(p.out), syncWriter(p.out)
	require.NoError(p.t, p.cmd.Start())
	if p.port != 0 {
		require.Eventually(p.t, func() bool {
			res, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/readyz", p.port))
			if err == nil {
				res.Body.Close()
			}
			return err == nil && res.StatusCode == http.StatusOK
		}, 30*time.Second, 100*time.Millisecond, "%s never became ready", p.sub)
	}
}

// signal sends sig and waits for the process to end.
func (p *proc) signal(sig syscall.Signal) {
	if p.cmd.Process != nil && p.cmd.ProcessState == nil {
		p.cmd.Process.Signal(sig)
		p.cmd.Wait()
	}
}

// restart stops the process gracefully (SIGTERM, as a deploy does) and starts it again.
func (p *proc) restart() {
	p.signal(syscall.SIGTERM)
	p.start()
}

var outMu sync.Mutex

type lockedWriter struct{ w io.Writer }

func (l lockedWriter) Write(b []byte) (int, error) {
	outMu.Lock()
	defer outMu.Unlock()
	return l.w.Write(b)
}

func syncWriter(w io.Writer) io.Writer { return lockedWriter{w} }

// fakeWhatsApp plays the Cloud API and records every code it is handed, with when.
type fakeWhatsApp struct {
	mu        sync.Mutex
	delivered map[string][]delivery // phone → codes received
	url       string
}

type delivery struct {
	code string
	at   time.Time
}

func newFakeWhatsApp(t *testing.T) *fakeWhatsApp {
	f := &fakeWhatsApp{delivered: map[string][]delivery{}}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	f.url = "http://" + l.Addr().String()
	srv := &http.Server{Handler: http.HandlerFunc(f.serve)}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return f
}

func (f *fakeWhatsApp) serve(w http.ResponseWriter, r *http.Request) {
	var msg struct {
		To       string `json:"to"`
		Template struct {
			Components []struct {
				Parameters []struct {
					Text string `json:"text"`
				} `json:"parameters"`
			} `json:"components"`
		} `json:"template"`
	}
	if err := json.NewDecoder(r.Body).Decode(&msg); err != nil || len(msg.Template.Components) == 0 ||
		len(msg.Template.Components[0].Parameters) == 0 {
		http.Error(w, `{"error":{"message":"bad request","code":100}}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.delivered[msg.To] = append(f.delivered[msg.To], delivery{code: msg.Template.Components[0].Parameters[0].Text, at: time.Now()})
	f.mu.Unlock()
	io.WriteString(w, `{"messaging_product":"whatsapp","messages":[{"id":"wamid.scale"}]}`)
}

// codesTo returns what reached one recipient (WhatsApp's "to": 521 and ten digits for Mexico).
func (f *fakeWhatsApp) codesTo(to string) []delivery {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]delivery(nil), f.delivered[to]...)
}

func (f *fakeWhatsApp) env() map[string]string {
	return map[string]string{"WHATSAPP_BASE_URL": f.url, "WHATSAPP_ACCESS_TOKEN": "scale-token",
		"WHATSAPP_PHONE_NUMBER_ID": "1000", "WHATSAPP_API_VERSION": "v21.0",
		// SMS is the fallback: never reached here (the fake accepts every message).
		"TWILIO_ACCOUNT_SID": "AC00000000000000000000000000000000", "TWILIO_AUTH_TOKEN": "x", "TWILIO_FROM": "+15005550006",
		"TWILIO_BASE_URL": f.url}
}
