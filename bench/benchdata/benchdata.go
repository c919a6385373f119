// Package benchdata is what the benchmarks share: the users the public-verification benchmarks
// look up, their knobs, the verification logs they leave queued, and where their reports go.
package benchdata

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/jobs"
)

// Seed writes n users like production: a third at level 3 with a biometric session, the rest
// spread over levels 0–2, with profile IDs PS-0000-0000-01 onwards.
func Seed(t testing.TB, db *sqlx.DB, n int) {
	t.Helper()
	start := time.Now()
	if _, err := db.Exec(`INSERT INTO users (nombre, email, phone_number, id_validado, vigencia, fecha_validacion,
			verification_level, is_phone_verified, is_email_verified, biometric_verified, origen)
		SELECT 'Usuario de Prueba ' || g, 'usuario' || g || '@example.com', '+5255' || lpad(g::text, 8, '0'),
			'PS-' || substr(lpad(g::text, 10, '0'), 1, 4) || '-' || substr(lpad(g::text, 10, '0'), 5, 4) || '-' || substr(lpad(g::text, 10, '0'), 9, 2),
			(ARRAY[1, 5, 10])[1 + g % 3], CASE WHEN g % 3 = 0 THEN now() - (g % 700) * interval '1 day' END,
			CASE WHEN g % 3 = 0 THEN 3 ELSE g % 3 END, true, g % 3 <> 1, g % 3 = 0,
			(ARRAY['CasaLista', 'VentaDirecta', 'Broker', 'Otro'])[1 + g % 4]
		FROM generate_series(1, $1) g`, n); err != nil {
		t.Fatalf("seed users: %v", err)
	}
	if _, err := db.Exec(`INSERT INTO verification_sessions (user_id, session_id, verification_status, overall_score,
			face_match_score, document_score, liveness_score, environment, completed_at)
		SELECT id, 'sess-' || id, 'Approved', 90 + id % 10, 91 + id % 9, 92 + id % 8, 93 + id % 7, 'production', fecha_validacion
		FROM users WHERE verification_level = 3`); err != nil {
		t.Fatalf("seed sessions: %v", err)
	}
	if _, err := db.Exec(`ANALYZE users; ANALYZE verification_sessions`); err != nil {
		t.Fatalf("analyze: %v", err)
	}
	t.Logf("seeded %d users in %v", n, time.Since(start).Round(time.Millisecond))
}

// ProfileIDs returns every seeded profile ID plus 2% made-up ones (PS-9999-…): the 404 path is
// part of real traffic.
func ProfileIDs(t testing.TB, db *sqlx.DB) []string {
	t.Helper()
	var ids []string
	if err := db.Select(&ids, `SELECT id_validado FROM users`); err != nil {
		t.Fatalf("profile ids: %v", err)
	}
	for i := range len(ids) / 50 {
		ids = append(ids, fmt.Sprintf("PS-9999-%04d-%02d", i/100, i%100))
	}
	return ids
}

// EnvInt reads a positive integer knob of a benchmark from the environment, or def.
func EnvInt(key string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(key)); err == nil && n > 0 {
		return n
	}
	return def
}

// PendingLogs is how many tasks wait on the low queue, where the public lookups' verification
// logs go (0 when the queue cannot be read).
func PendingLogs(t testing.TB, opt asynq.RedisConnOpt) int {
	t.Helper()
	insp := asynq.NewInspector(opt)
	defer insp.Close()
	info, err := insp.GetQueueInfo(jobs.QueueLow)
	if err != nil {
		return 0
	}
	return info.Pending
}

// AppendReport adds a report to BENCHMARKS.md (or to the file BENCH_OUT names, created when
// missing) and returns the path it wrote to; the default path is relative to a benchmark package
// two levels below the repository root (bench/<name>), where go test runs it.
func AppendReport(t testing.TB, report string) string {
	t.Helper()
	path := os.Getenv("BENCH_OUT")
	if path == "" {
		path = "../../BENCHMARKS.md"
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	require.NoError(t, err)
	defer f.Close()
	_, err = f.WriteString(report)
	require.NoError(t, err)
	return path
}
