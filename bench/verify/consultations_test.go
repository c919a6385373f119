package verify_test

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/bench/benchdata"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

// consultationsScript signs in as a random watched person (their session cookie) and asks for
// the first page of their lookups, or half the time a page further back in the month.
const consultationsScript = `
local people = {}
setup = function(thread) end
init = function(args)
  for line in io.lines(args[1]) do
    local id, token = line:match("(%d+) (%x+)")
    people[#people + 1] = { id = id, token = token }
  end
  math.randomseed(os.time() * 1000 + math.random(1000))
  now = tonumber(args[2])
end
request = function()
  local p = people[math.random(#people)]
  local path = "/api/users/" .. p.id .. "/consultations?limit=20"
  if math.random(2) == 1 then
    path = path .. "&before=" .. string.format("%d", now - math.random(30 * 86400) * 1000000) .. "_9000000000000000000"
  end
  return wrk.format("GET", path, { ["Cookie"] = "ps_session=" .. p.token })
end
`

// TestConsultationsFromOutside is `make bench-consultations`: a month of lookups of people
// checked thousands of times (issue 25: "a month of data loads fast"), read through
// GET /api/users/{id}/consultations of the real `perfilseguro api` (Procfile, production) beside
// the bare baseline (one prepared session lookup and one prepared keyset page), alternating.
func TestConsultationsFromOutside(t *testing.T) {
	if os.Getenv("BENCH_CONSULTATIONS") != "1" {
		t.Skip("load test: run with BENCH_CONSULTATIONS=1 (make bench-consultations)")
	}
	users := benchdata.EnvInt("BENCH_USERS", 10_000)
	watched := benchdata.EnvInt("BENCH_WATCHED", 50)
	perPerson := benchdata.EnvInt("BENCH_LOOKUPS_PER_PERSON", 3_000)
	conns := benchdata.EnvInt("BENCH_CONNECTIONS", 32)
	secs := benchdata.EnvInt("BENCH_SECONDS", 10)
	rounds := benchdata.EnvInt("BENCH_ROUNDS", 3)

	db, dsn := pgtest.New(t)
	benchdata.Seed(t, db, users)
	began := time.Now()
	var err error
	// The watched people: a session each and perPerson lookups over the last 30 days, a third of
	// them by a partner; everyone else a few lookups, so the index holds other people's rows too.
	_, err = db.Exec(`INSERT INTO api_keys (key_id, partner_name, domain) VALUES ('pk_bench', 'CasaLista', 'https://casalista.bench');
		INSERT INTO user_sessions (token_hash, user_id, expires_at)
			SELECT encode(sha256(convert_to(encode(sha256(convert_to('bench-' || id, 'UTF8')), 'hex'), 'UTF8')), 'hex'), id, now() + interval '1 day'
			FROM users WHERE id <= ` + strconv.Itoa(watched))
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO verification_logs (user_id, id_validado, scanned_at, ip_address, user_agent, access_type, granted, request_id, partner_id)
		SELECT u.id, u.id_validado, now() - random() * interval '30 days', '203.0.113.9', 'bench',
			CASE WHEN g % 3 = 0 THEN 'partner_api' ELSE 'public_page' END, true, 'b-' || u.id || '-' || g,
			CASE WHEN g % 3 = 0 THEN (SELECT id FROM api_keys WHERE key_id = 'pk_bench') END
		FROM users u CROSS JOIN LATERAL generate_series(1, CASE WHEN u.id <= $1 THEN $2 ELSE 20 END) g`, watched, perPerson)
	require.NoError(t, err)
	_, err = db.Exec(`ANALYZE verification_logs; ANALYZE user_sessions`)
	require.NoError(t, err)
	var rows int
	require.NoError(t, db.Get(&rows, `SELECT count(*) FROM verification_logs`))
	t.Logf("seeded %d lookups (%d people with %d each) in %v", rows, watched, perPerson, time.Since(began).Round(time.Millisecond))

	dir := t.TempDir()
	var lines []string
	for id := 1; id <= watched; id++ {
		var token string
		require.NoError(t, db.Get(&token, `SELECT encode(sha256(convert_to('bench-' || $1::text, 'UTF8')), 'hex')`, id))
		lines = append(lines, fmt.Sprintf("%d %s", id, token))
	}
	people := filepath.Join(dir, "people.txt")
	require.NoError(t, os.WriteFile(people, []byte(strings.Join(lines, "\n")+"\n"), 0o644))
	script := filepath.Join(dir, "consultations.lua")
	require.NoError(t, os.WriteFile(script, []byte(consultationsScript), 0o644))
	bare, api := startBareAndAPI(t, dsn, "bare net/http + 2 prepared SELECTs")
	targets := []benchTarget{bare, api}
	for _, tg := range targets {
		// One request by hand first: a refusal here says why better than wrk's count of non-2xx.
		req, _ := http.NewRequest("GET", tg.url+"/api/users/1/consultations?limit=20", nil)
		token := strings.Fields(lines[0])[1]
		req.AddCookie(&http.Cookie{Name: "ps_session", Value: token})
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		require.Equal(t, http.StatusOK, res.StatusCode, "%s: %s", tg.name, body)
	}
	now := strconv.FormatInt(time.Now().UnixMicro(), 10)
	r := againstBare(t, targets, rounds, secs, func(url string, d int) round {
		return wrkRun(t, conns, script, url, d, people, now)
	})
	var sb strings.Builder
	sb.WriteString(benchHeading("Consultas a tu perfil from outside the process"))
	fmt.Fprintf(&sb, "`make bench-consultations`: %d lookups in `verification_logs` (%d people looked up %d times each over 30 days, "+
		"a third by a partner; %d others 20 times each); wrk with %d connections asks for a random watched person's first page or a page "+
		"further back in the month, with their session cookie; %d rounds of %d s per target, alternating. %s\n\n",
		rows, watched, perPerson, users-watched, conns, rounds, secs, r.machine)
	roundsTable(&sb, targets, r.results)
	fmt.Fprintf(&sb, "\nMean requests/s: API %.0f, bare %.0f, ratio **%.2f×**; median p99: API %v, bare %v.\n",
		r.apiRPS, r.bareRPS, r.ratio(), medianP99(r.results[1]), medianP99(r.results[0]))
	path := benchdata.AppendReport(t, sb.String())
	t.Logf("ratio %.2f×; appended to %s", r.ratio(), path)
}
