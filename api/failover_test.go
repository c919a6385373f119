package api_test

import (
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

// blackHole accepts connections and never answers, as a frozen server or a proxy with nowhere
// to send them.
func blackHole(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	var mu sync.Mutex
	var held []net.Conn
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	return ln.Addr().String()
}

// closedPort is an address where nothing listens: connections are refused.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// unreachableDB is a pool on addr with the application's connection bounds, not checked at open.
func unreachableDB(t *testing.T, addr string) *sqlx.DB {
	t.Helper()
	db, err := postgres.OpenReplica("postgres://postgres@" + addr + "/perfilseguro?sslmode=disable")
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}

// No primary: a request that needs Postgres answers 503 with Retry-After and the Spanish message
// within the connection bound (3 s), never 500 and never a hang; /readyz names postgres.
func TestPostgresUnreachableAnswers503InTime(t *testing.T) {
	t.Parallel()
	for name, addr := range map[string]string{"black hole": blackHole(t), "closed port": closedPort(t)} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := setup(t, func(d *api.Deps) { d.DB = unreachableDB(t, addr) })
			p := newPerson()
			body := `{"fullName":"` + p.Name + `","email":"` + p.Email + `","phoneNumber":"` + p.Phone + `"}`
			start := time.Now()
			res, raw := e.do(t, "POST", "/api/register", "application/json", body)
			took := time.Since(start)
			require.Equal(t, http.StatusServiceUnavailable, res.StatusCode, raw)
			require.Equal(t, "10", res.Header.Get("Retry-After"))
			require.Contains(t, raw, "no está disponible")
			require.Less(t, took, 5*time.Second, "bounded by connect_timeout (3 s)")

			start = time.Now()
			res, raw = e.do(t, "GET", "/readyz", "", "")
			require.Equal(t, http.StatusServiceUnavailable, res.StatusCode, raw)
			require.Less(t, time.Since(start), 4*time.Second)
			var ready struct {
				Checks map[string]string `json:"checks"`
			}
			require.NoError(t, json.Unmarshal([]byte(raw), &ready))
			require.Equal(t, "unreachable", ready.Checks["postgres"])
		})
	}
}

// A provider's webhook that cannot be stored answers 503, so the provider delivers it again.
func TestWebhooksAnswer503WhenTheyCannotBeStored(t *testing.T) {
	t.Parallel()
	dead := func(d *api.Deps) { d.DB = unreachableDB(t, closedPort(t)) }

	e := lvSetup(t, dead)
	status, raw := e.postWebhook(t, []byte(`{"session_id":"sess-1","status":"Approved","webhook_type":"status.updated","created_at":1700000000}`),
		e.cfg.Didit.WebhookSecret, time.Now())
	require.Equal(t, http.StatusServiceUnavailable, status, raw)
	require.True(t, strings.Contains(raw, "no está disponible"), raw)

	p := paySetup(t, dead)
	status, raw = p.postPaymentEvent(t, sessionEvent("evt_1", "checkout.session.completed", "cs_1"), p.cfg.Payments.StripeWebhookSecret, time.Now())
	require.Equal(t, http.StatusServiceUnavailable, status, raw)
}

// A person's consultations list is read from DATABASE_REPLICA_URL when there is one, and from
// the leader when the replica cannot be reached.
func TestConsultationsReadFromTheReplicaOrFallBackToTheLeader(t *testing.T) {
	t.Parallel()
	// each takes the subtest's t: the parent's has returned by the time its parallel subtests run
	sameDatabase := func(t *testing.T, d *api.Deps) {
		name := dbGet[string](t, d.DB, `SELECT current_database()`)
		replica, err := postgres.OpenReplica(pgtest.WithDatabase(pgtest.AdminURL(), name))
		require.NoError(t, err)
		t.Cleanup(func() { replica.Close() })
		d.ReplicaDB = replica
	}
	otherDatabase := func(t *testing.T, d *api.Deps) { d.ReplicaDB, _ = pgtest.New(t) } // migrated, empty: shows where the read went
	deadReplica := func(t *testing.T, d *api.Deps) { d.ReplicaDB = unreachableDB(t, closedPort(t)) }
	for name, c := range map[string]struct {
		replica func(*testing.T, *api.Deps)
		items   int
	}{"same database": {sameDatabase, 3}, "another database": {otherDatabase, 0}, "replica down": {deadReplica, 3}} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := lvSetup(t, func(d *api.Deps) { c.replica(t, d) })
			a := e.signedUp(t)
			_, err := e.db.Exec(`INSERT INTO verification_logs (user_id, id_validado, scanned_at, ip_address, user_agent, access_type, granted, request_id)
				SELECT u.id, u.id_validado, now() - make_interval(mins => g), '203.0.113.1', 'UA', 'public_page', true, 'r-' || u.id || '-' || g
				FROM users u, generate_series(1, 3) g WHERE u.id = $1`, a.id)
			require.NoError(t, err)
			status, out, _ := a.call("GET", a.path("/api/users/%d/consultations"), nil)
			require.Equal(t, http.StatusOK, status, out)
			require.Len(t, out["items"], c.items)
		})
	}
}
