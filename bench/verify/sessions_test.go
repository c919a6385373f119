package verify_test

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/bench/benchdata"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

// sessionsScript reads a random session of the partner with its secret key.
const sessionsScript = `
local ids = {}
init = function(args)
  for line in io.lines(args[1]) do ids[#ids + 1] = line end
  key = args[2]
  math.randomseed(os.time() * 1000 + math.random(1000))
end
request = function()
  return wrk.format("GET", "/api/partner/v1/verification-sessions/" .. ids[math.random(#ids)], { ["Authorization"] = "Bearer " .. key })
end
`

// benchSecretKey is the partner's secret key of the benchmark (its hash is seeded).
const benchSecretKey = "sk_live_0123456789abcdef0123456789abcdef0123456789abcdef"

// TestPartnerSessionsFromOutside is `make bench-sessions` (issue 36): a partner's server reads
// its verification sessions, GET /api/partner/v1/verification-sessions/{id} with its secret key,
// closed loop with wrk, against the real `perfilseguro api` (Procfile, production) beside the bare
// one-query server, alternating. Target: the API at 0.8× the bare server's requests/s or better,
// the key check included.
func TestPartnerSessionsFromOutside(t *testing.T) {
	if os.Getenv("BENCH_SESSIONS") != "1" {
		t.Skip("load test: run with BENCH_SESSIONS=1 (make bench-sessions)")
	}
	sessions := benchdata.EnvInt("BENCH_SESSIONS_COUNT", 100_000)
	conns := benchdata.EnvInt("BENCH_CONNECTIONS", 32)
	secs := benchdata.EnvInt("BENCH_SECONDS", 10)
	rounds := benchdata.EnvInt("BENCH_ROUNDS", 3)

	db, dsn := pgtest.New(t)
	var err error
	// One partner with a live secret key, and sessions over the last month: a third completed
	// with shared claims, the rest in every other state; a second partner's sessions beside them.
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO api_keys (key_id, partner_name, domain) VALUES
			('pk_live_0000000000000000000bench1', 'CasaLista', 'https://casalista.bench'),
			('pk_live_0000000000000000000bench2', 'ValorCasa', 'https://valorcasa.bench')`, nil},
		{`INSERT INTO partner_keys (partner_id, kind, livemode, token_hash, hint)
			SELECT id, 'secret', true, encode(sha256(convert_to($1, 'UTF8')), 'hex'), 'sk_live_…cdef' FROM api_keys WHERE partner_name = 'CasaLista'`,
			[]any{benchSecretKey}},
		{`INSERT INTO partner_sessions (id, partner_id, livemode, reference, required_level, claims, secret_hash, status, shared,
				created_at, expires_at, ended_at)
			SELECT 'vs_' || lpad(to_hex(g), 24, '0'), (SELECT min(id) FROM api_keys) + (g % 2), true, 'cliente-' || g, 3,
				'{name,validUntil}', 'h' || g, (ARRAY['completed','declined','expired','canceled','in_progress','created'])[1 + g % 6],
				CASE WHEN g % 6 = 0 THEN jsonb_build_object('name', 'Persona ' || g, 'validUntil', now() + interval '1 year') END,
				now() - (g % 30) * interval '1 day', now() + interval '1 day', CASE WHEN g % 6 < 4 THEN now() END
			FROM generate_series(1, $1) g`, []any{sessions}},
		{`ANALYZE partner_sessions`, nil},
	} {
		_, err = db.Exec(q.sql, q.args...)
		require.NoError(t, err)
	}

	dir := t.TempDir()
	var ids []string
	require.NoError(t, db.Select(&ids, `SELECT id FROM partner_sessions WHERE partner_id = (SELECT min(id) FROM api_keys) ORDER BY random() LIMIT 20000`))
	idsFile := filepath.Join(dir, "ids.txt")
	require.NoError(t, os.WriteFile(idsFile, []byte(strings.Join(ids, "\n")+"\n"), 0o644))
	script := filepath.Join(dir, "sessions.lua")
	require.NoError(t, os.WriteFile(script, []byte(sessionsScript), 0o644))
	bare, api := startBareAndAPI(t, dsn, "bare net/http + 1 prepared SELECT (no key check)")
	targets := []benchTarget{bare, api}
	for _, tg := range targets {
		req, _ := http.NewRequest("GET", tg.url+"/api/partner/v1/verification-sessions/"+ids[0], nil)
		req.Header.Set("Authorization", "Bearer "+benchSecretKey)
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		require.Equal(t, http.StatusOK, res.StatusCode, "%s: %s", tg.name, body)
		require.Contains(t, string(body), ids[0])
	}
	// The API refuses another partner's session and a wrong key (the bare server checks neither).
	var other string
	require.NoError(t, db.Get(&other, `SELECT id FROM partner_sessions WHERE partner_id = (SELECT max(id) FROM api_keys) LIMIT 1`))
	for key, want := range map[string]int{benchSecretKey: http.StatusNotFound, strings.Replace(benchSecretKey, "0123", "9999", 1): http.StatusUnauthorized} {
		req, _ := http.NewRequest("GET", api.url+"/api/partner/v1/verification-sessions/"+other, nil)
		req.Header.Set("Authorization", "Bearer "+key)
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, want, res.StatusCode)
	}

	if out := os.Getenv("BENCH_PROFILE"); out != "" { // a CPU profile of the API under this load
		done := make(chan struct{})
		go func() { defer close(done); profile(t, api.metrics+"/debug/pprof/profile?seconds=5", out) }()
		wrkRun(t, conns, script, api.url, 6, idsFile, benchSecretKey)
		<-done
	}
	r := againstBare(t, targets, rounds, secs, func(url string, d int) round {
		return wrkRun(t, conns, script, url, d, idsFile, benchSecretKey)
	})
	var sb strings.Builder
	sb.WriteString(benchHeading("Partner API: reading a verification session from outside the process"))
	fmt.Fprintf(&sb, "`make bench-sessions`: %d sessions of two partners; wrk with %d connections reads a random session of the first "+
		"with its live secret key (`Authorization: Bearer sk_live_…`), closed loop; %d rounds of %d s per target, alternating. %s\n\n",
		sessions, conns, rounds, secs, r.machine)
	roundsTable(&sb, targets, r.results)
	ratio := r.ratio()
	fmt.Fprintf(&sb, "\nMean requests/s: API %.0f, bare %.0f, ratio **%.2f×** (target ≥ 0.8×, the key check included); median p99: API %v, bare %v.\n",
		r.apiRPS, r.bareRPS, ratio, medianP99(r.results[1]), medianP99(r.results[0]))
	path := benchdata.AppendReport(t, sb.String())
	t.Logf("ratio %.2f×; appended to %s", ratio, path)
	require.GreaterOrEqual(t, ratio, 0.8, "the partner API reads sessions at under 0.8× the bare server's rate")
}
