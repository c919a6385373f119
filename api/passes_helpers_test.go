package api_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/config"
	"github.com/perfilseguro/perfilseguro/provider/applewallet"
	"github.com/perfilseguro/perfilseguro/provider/googlewallet"
	"github.com/perfilseguro/perfilseguro/secure"
	"github.com/perfilseguro/perfilseguro/worker"
)

// testBaseURL is PUBLIC_BASE_URL of the test configuration (config default).
const testBaseURL = "http://localhost:8080"

// seeded is a user written straight into the database for the passes tests.
type seeded struct {
	Name      string
	Email     string
	Phone     string
	Level     int
	Validated *time.Time
	Vigencia  int
}

var seq struct {
	sync.Mutex
	n int
}

// seedUser inserts a user with the given level and validation date; it returns id and profile ID.
func seedUser(t *testing.T, db *sqlx.DB, s seeded) (int64, string) {
	t.Helper()
	seq.Lock()
	seq.n++
	n := seq.n
	seq.Unlock()
	if s.Name == "" {
		s.Name = "María Fernanda López"
	}
	if s.Vigencia == 0 {
		s.Vigencia = 1
	}
	if s.Email == "" {
		s.Email = fmt.Sprintf("persona%d-%d@gmail.com", n, time.Now().UnixNano()%1e6)
	}
	if s.Phone == "" {
		s.Phone = fmt.Sprintf("+5255%08d", (time.Now().UnixNano()+int64(n))%1e8)
	}
	pid := perfilseguro.NewProfileID()
	var id int64
	require.NoError(t, db.Get(&id, `INSERT INTO users (nombre, email, phone_number, vigencia, fecha_validacion,
		id_validado, verification_level, is_phone_verified, is_email_verified, biometric_verified)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
		s.Name, s.Email, s.Phone, s.Vigencia, s.Validated, pid, s.Level, s.Level >= 1, s.Level >= 2, s.Level >= 3))
	return id, pid
}

// signedIn returns a client carrying a live session cookie for userID.
func (e *env) signedIn(t *testing.T, userID int64) *http.Client {
	t.Helper()
	b := make([]byte, 32)
	rand.Read(b)
	token := hex.EncodeToString(b)
	_, err := e.db.Exec(`INSERT INTO user_sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day')`,
		secure.HashToken(token), userID)
	require.NoError(t, err)
	jar, _ := cookiejar.New(nil)
	u, _ := url.Parse(e.srv.URL)
	jar.SetCookies(u, []*http.Cookie{{Name: "ps_session", Value: token, Path: "/"}})
	return &http.Client{Jar: jar, Timeout: 30 * time.Second}
}

var (
	devMaterialOnce sync.Once
	devMaterialDir  string
	devMaterialErr  error
)

// passSigners returns development Apple and Google signers sharing one generated directory.
func passSigners(t *testing.T) (*applewallet.Builder, *googlewallet.Signer, string) {
	t.Helper()
	devMaterialOnce.Do(func() {
		devMaterialDir, devMaterialErr = os.MkdirTemp("", "passes-test-*")
	})
	require.NoError(t, devMaterialErr)
	ac, err := applewallet.DevConfig(devMaterialDir)
	require.NoError(t, err)
	apple, err := applewallet.New(ac)
	require.NoError(t, err)
	gc, err := googlewallet.DevConfig(devMaterialDir, []string{testBaseURL})
	require.NoError(t, err)
	return apple, googlewallet.New(gc), devMaterialDir
}

// worker returns the test's worker (not running) with the pass signers.
func (e *env) worker(t *testing.T, mutate ...func(*worker.Deps)) *worker.Worker {
	t.Helper()
	apple, google, _ := passSigners(t)
	d := worker.Deps{DB: e.db, Enqueuer: e.queue, Sealer: secure.NewSealer(config.DevSecret),
		PublicBaseURL: testBaseURL, Passes: worker.PassesDeps{Apple: apple, Google: google}}
	for _, m := range mutate {
		m(&d)
	}
	return worker.New(e.asynqOpt, 4, time.Second, d)
}

// runWorker processes the test's queues in the background until the test ends.
func (e *env) runWorker(t *testing.T, mutate ...func(*worker.Deps)) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	w := e.worker(t, mutate...)
	go func() { defer close(done); _ = w.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
}

// pendingTasks lists the tasks waiting in a queue.
func (e *env) pendingTasks(t *testing.T, queue string) []*asynq.TaskInfo {
	t.Helper()
	insp := asynq.NewInspector(e.asynqOpt)
	defer insp.Close()
	tasks, err := insp.ListPendingTasks(queue, asynq.PageSize(500))
	if err != nil {
		return nil // the queue does not exist yet
	}
	return tasks
}

// get sends a GET with a client and returns the response and body.
func get(t *testing.T, c *http.Client, url string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	return roundTrip(t, c, req, header...)
}

func strconvFormat(n int64) string { return strconv.FormatInt(n, 10) }
