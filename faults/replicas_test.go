package faults

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/config"
	"github.com/perfilseguro/perfilseguro/jobs/redistest"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

// replica is one `perfilseguro api` process with its private metrics listener.
type replica struct {
	*apiClient
	metrics string
}

// publicView is the part of GET /api/verify/{id} these tests read.
type publicView struct {
	status   int
	nombre   string
	nivel    int
	expirado bool
	overall  *float64
}

func (r *replica) verify(t *testing.T, profileID string) publicView {
	t.Helper()
	res, err := http.Get(r.base + "/api/verify/" + profileID)
	require.NoError(t, err)
	defer res.Body.Close()
	var body struct {
		Profile struct {
			Nombre   string `json:"nombre"`
			Nivel    int    `json:"nivel_verificacion"`
			Expirado bool   `json:"expirado"`
		} `json:"profile"`
		Details *struct {
			Scores struct {
				Overall *float64 `json:"overall"`
			} `json:"scores"`
		} `json:"verification_details"`
	}
	json.NewDecoder(res.Body).Decode(&body)
	v := publicView{status: res.StatusCode, nombre: body.Profile.Nombre, nivel: body.Profile.Nivel, expirado: body.Profile.Expirado}
	if body.Details != nil {
		v.overall = body.Details.Scores.Overall
	}
	return v
}

// cacheHits reads the replica's count of lookups answered from its cache.
func (r *replica) cacheHits(t *testing.T) float64 {
	t.Helper()
	res, err := http.Get(r.metrics)
	require.NoError(t, err)
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "perfilseguro_public_record_cache_hits_total "); ok {
			f, err := strconv.ParseFloat(v, 64)
			require.NoError(t, err)
			return f
		}
	}
	t.Fatal("no cache hit counter in " + r.metrics)
	return 0
}

// startReplicas runs n API processes on one database and one Redis, as behind a load balancer.
func startReplicas(t *testing.T, n int) (*sqlx.DB, []*replica) {
	t.Helper()
	db, dsn := pgtest.New(t)
	opt, _ := redistest.New(t)
	var rs []*replica
	for range n {
		metrics := fmt.Sprintf("127.0.0.1:%d", freePort(t))
		// Every lookup comes from 127.0.0.1: the miss limit is raised out of the way.
		c := startAPI(t, map[string]string{"DATABASE_URL": dsn, "REDIS_URL": redistest.URL(opt), "METRICS_ADDR": metrics,
			"PUBLIC_MISSES_PER_MINUTE": "100000", "PUBLIC_MISS_BURST": "10000"})
		rs = append(rs, &replica{apiClient: c, metrics: "http://" + metrics + "/metrics"})
	}
	return db, rs
}

// seedValidated writes a level-3 person validated a month ago with one approved session.
func seedValidated(t *testing.T, db *sqlx.DB, profileID string) int64 {
	t.Helper()
	var id int64
	require.NoError(t, db.Get(&id, `INSERT INTO users (nombre, id_validado, vigencia, fecha_validacion, verification_level,
		is_phone_verified, is_email_verified, biometric_verified) VALUES ('Ana López', $1, 1, now() - interval '30 days', 3, true, true, true)
		RETURNING id`, profileID))
	_, err := db.Exec(`INSERT INTO verification_sessions (user_id, session_id, verification_status, overall_score, environment, completed_at)
		VALUES ($1, $2, 'Approved', 91, 'production', now() - interval '30 days')`, id, "sess-"+profileID)
	require.NoError(t, err)
	return id
}

// warm reads the profile from every replica until each answers from its cache.
func warm(t *testing.T, rs []*replica, profileID string) {
	t.Helper()
	for _, r := range rs {
		before := r.cacheHits(t)
		require.Eventually(t, func() bool {
			r.verify(t, profileID)
			return r.cacheHits(t) > before
		}, 5*time.Second, 20*time.Millisecond, "replica %s never answered from its cache", r.base)
	}
}

// visibleWithin polls every replica until seen holds for each, and fails past limit.
func visibleWithin(t *testing.T, rs []*replica, profileID string, limit time.Duration, what string, seen func(publicView) bool) {
	t.Helper()
	start := time.Now()
	for _, r := range rs {
		for !seen(r.verify(t, profileID)) {
			require.Less(t, time.Since(start), limit, "%s not visible on %s after %v", what, r.base, limit)
			time.Sleep(10 * time.Millisecond)
		}
	}
	t.Logf("%s visible on %d replicas after %v", what, len(rs), time.Since(start).Round(time.Millisecond))
}

// admin signs in on one replica with the development password (test mode).
func (r *replica) admin(t *testing.T) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	res := r.send(t, c, "POST", "/api/admin/login", map[string]string{"password": config.DevAdminPassword})
	require.Equal(t, http.StatusOK, res)
	return c
}

func (r *replica) send(t *testing.T, c *http.Client, method, path string, body any) int {
	t.Helper()
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, r.base+path, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", r.base)
	res, err := c.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	return res.StatusCode
}

// Two API replicas cache public records; every kind of change reaches both within 1 s, whoever
// makes it, and a deletion is gone at once on the replica that made it.
func TestPublicRecordChangesReachEveryReplicaWithinASecond(t *testing.T) {
	db, rs := startReplicas(t, 2)
	a, b := rs[0], rs[1]
	const pid = "PS-4321-0000-01"
	// Each replica caches that no profile has this ID yet…
	warm(t, rs, pid)
	require.Equal(t, http.StatusNotFound, b.verify(t, pid).status)
	// …and a new profile with it is announced like a change.
	id := seedValidated(t, db, pid)
	visibleWithin(t, rs, pid, time.Second, "new profile", func(v publicView) bool { return v.status == http.StatusOK })
	warm(t, rs, pid)
	require.Equal(t, 3, a.verify(t, pid).nivel)

	// A level change written by another process (the worker, an operator): only Postgres knows.
	_, err := db.Exec(`UPDATE users SET verification_level = 2, biometric_verified = false WHERE id = $1`, id)
	require.NoError(t, err)
	visibleWithin(t, rs, pid, time.Second, "level change", func(v publicView) bool { return v.nivel == 2 })

	_, err = db.Exec(`UPDATE users SET verification_level = 3, biometric_verified = true WHERE id = $1`, id)
	require.NoError(t, err)
	visibleWithin(t, rs, pid, time.Second, "level back to 3", func(v publicView) bool { return v.nivel == 3 })

	// New biometric scores (a renewal's session) change the public record too.
	warm(t, rs, pid)
	_, err = db.Exec(`INSERT INTO verification_sessions (user_id, session_id, verification_status, overall_score, environment, completed_at)
		VALUES ($1, 'sess-renewal', 'Approved', 97, 'production', now())`, id)
	require.NoError(t, err)
	visibleWithin(t, rs, pid, time.Second, "new session scores", func(v publicView) bool { return v.overall != nil && *v.overall == 97 })

	// An administrator's edit through replica a.
	warm(t, rs, pid)
	admin := a.admin(t)
	require.Equal(t, http.StatusOK, a.send(t, admin, "PUT", fmt.Sprintf("/api/users/%d", id),
		map[string]any{"nombre": "Ana María López", "email": "ana@example.com", "origen": "Otro", "vigencia": 1,
			"confirmRevalidation": true})) // a validated person's new name annuls the validation (issue 54, item 22)
	require.Equal(t, "Ana María López", a.verify(t, pid).nombre, "the replica that made the edit shows it at once")
	visibleWithin(t, rs, pid, time.Second, "admin edit", func(v publicView) bool { return v.nombre == "Ana María López" && v.nivel == 2 })
	_, err = db.Exec(`UPDATE users SET verification_level = 3, biometric_verified = true, fecha_validacion = now() WHERE id = $1`, id)
	require.NoError(t, err)
	visibleWithin(t, rs, pid, time.Second, "validated again", func(v publicView) bool { return v.nivel == 3 })

	// An expiry recorded in the database (the validity moved into the past).
	warm(t, rs, pid)
	require.False(t, b.verify(t, pid).expirado)
	_, err = db.Exec(`UPDATE users SET fecha_validacion = now() - interval '400 days' WHERE id = $1`, id)
	require.NoError(t, err)
	visibleWithin(t, rs, pid, time.Second, "expiry", func(v publicView) bool { return v.expirado })

	// A deletion through replica a: gone there at once, on b within a second.
	warm(t, rs, pid)
	require.Equal(t, http.StatusOK, a.send(t, admin, "DELETE", fmt.Sprintf("/api/users/%d", id), nil))
	require.Equal(t, http.StatusNotFound, a.verify(t, pid).status, "the replica that deleted answers 404 at once")
	visibleWithin(t, rs, pid, time.Second, "deletion", func(v publicView) bool { return v.status == http.StatusNotFound })
}

// When a replica's feed of changes loses its connection, the changes announced meanwhile are
// lost to it; it must stop serving its cache and start again empty, never show the old record.
func TestAReplicaThatLostItsChangeFeedStopsServingItsCache(t *testing.T) {
	db, rs := startReplicas(t, 1)
	const pid = "PS-4321-0000-02"
	id := seedValidated(t, db, pid)
	warm(t, rs, pid)
	// Cut the listening connection, and change the record while it is down.
	var cut int
	require.NoError(t, db.Get(&cut, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND query LIKE 'LISTEN%'`))
	require.Equal(t, 1, cut, "one listening connection")
	_, err := db.Exec(`UPDATE users SET nombre = 'Ana Cambiada' WHERE id = $1`, id)
	require.NoError(t, err)
	visibleWithin(t, rs, pid, time.Second, "change made while the feed was down", func(v publicView) bool { return v.nombre == "Ana Cambiada" })
	// And it caches again once the feed is back.
	warm(t, rs, pid)
	require.Equal(t, "Ana Cambiada", rs[0].verify(t, pid).nombre)
}
