package postgres_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

// inviter creates a user to own invitations.
func inviter(t testing.TB, db *sqlx.DB) int64 {
	t.Helper()
	phone := fmt.Sprintf("+5255%08d", time.Now().UnixNano()%100_000_000)
	id, _ := insertPerson(t, &postgres.Store{DB: db}, postgres.NewUser{Nombre: "Ana", Phone: &phone})
	return id
}

func TestExpireInvitationsInBatchesFlipsOnlyPastDuePending(t *testing.T) {
	t.Parallel()
	_, db, store := setup(t)
	owner := inviter(t, db)
	_, err := db.Exec(`INSERT INTO invitations (inviter_id, invitee_email, invitee_name, invitation_code, unique_token, type, status, expires_at)
		SELECT $1, 'x@example.com', 'X', 'C' || g, 'T' || g, 'client', s, now() + make_interval(mins => m)
		FROM generate_series(1, 21) g,
		LATERAL (SELECT CASE WHEN g <= 11 THEN 'pending' WHEN g <= 14 THEN 'accepted' ELSE 'cancelled' END AS s,
		                CASE WHEN g <= 7 OR g > 11 THEN -5 ELSE 5 END AS m) x`, owner)
	require.NoError(t, err)

	n, err := store.ExpireInvitations(context.Background(), 2) // 7 past-due pending rows in batches of 2
	require.NoError(t, err)
	require.EqualValues(t, 7, n)
	n, err = store.ExpireInvitations(context.Background(), 2)
	require.NoError(t, err)
	require.Zero(t, n, "a second run changes nothing")

	var counts []string
	require.NoError(t, db.Select(&counts, `SELECT status || ':' || count(*) FROM invitations GROUP BY status ORDER BY status`))
	require.Equal(t, []string{"accepted:3", "cancelled:7", "expired:7", "pending:4"}, counts)
}

func TestCancelAndAcceptOnlyWhilePending(t *testing.T) {
	t.Parallel()
	ctx, db, store := setup(t)
	owner := inviter(t, db)
	var id int64
	require.NoError(t, store.InTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		id, err = store.InsertInvitation(ctx, tx, postgres.NewInvitation{InviterID: owner, InviteeEmail: "c@example.com",
			InviteeName: "Carlos", Type: postgres.InvitationBroker, ExpiresAt: time.Now().Add(time.Hour)},
			func() (string, string) { return "ABCDEFGHJKMN", "token-1" })
		return err
	}))
	// A colliding code is drawn again.
	draws := 0
	require.NoError(t, store.InTx(ctx, func(tx *sqlx.Tx) error {
		_, err := store.InsertInvitation(ctx, tx, postgres.NewInvitation{InviterID: owner, InviteeEmail: "d@example.com",
			InviteeName: "Diana", Type: postgres.InvitationClient, ExpiresAt: time.Now().Add(time.Hour)},
			func() (string, string) {
				draws++
				if draws == 1 {
					return "ABCDEFGHJKMN", "token-2"
				}
				return "PQRSTUVWXYZ2", "token-2"
			})
		return err
	}))
	require.Equal(t, 2, draws)

	ok, err := store.CancelInvitation(ctx, id, owner+1)
	require.NoError(t, err)
	require.False(t, ok, "not the owner")
	require.NoError(t, store.InTx(ctx, func(tx *sqlx.Tx) error {
		ok, err := store.MarkInvitationAccepted(ctx, tx, id, owner)
		require.True(t, ok)
		return err
	}))
	ok, err = store.CancelInvitation(ctx, id, owner)
	require.NoError(t, err)
	require.False(t, ok, "accepted cannot be cancelled")
	inv, err := store.InvitationByCode(ctx, "ABCDEFGHJKMN")
	require.NoError(t, err)
	require.Equal(t, postgres.InvitationAccepted, inv.Status)
	require.NotNil(t, inv.TokenUsedAt)
	require.Equal(t, "Ana", inv.InviterName)
}

// BenchmarkExpireMillionInvitations expires 1,000,000 past-due pending invitations while four
// clients keep inserting single invitations, and reports the expiry's total time and the p99 of
// the inserts (targets: under 60 s and under 50 ms). It does the work once whatever b.N is.
func BenchmarkExpireMillionInvitations(b *testing.B) {
	const rows = 1_000_000
	db, _ := pgtest.New(b)
	db.SetMaxOpenConns(8)
	store := postgres.Store{DB: db}
	ctx := context.Background()
	owner := inviter(b, db)
	start := time.Now()
	if _, err := db.Exec(`INSERT INTO invitations (inviter_id, invitee_email, invitee_name, invitation_code, unique_token, type, expires_at)
		SELECT $1, 'bench' || g || '@example.com', 'Invitado ' || g, 'B' || g, md5(g::text) || md5((g + 1)::text), 'client',
		       now() - interval '1 minute' - make_interval(secs => g % 86400)
		FROM generate_series(1, $2) g`, owner, rows); err != nil {
		b.Fatal(err)
	}
	if _, err := db.Exec(`VACUUM ANALYZE invitations`); err != nil {
		b.Fatal(err)
	}
	b.Logf("seeded %d past-due invitations in %s", rows, time.Since(start).Round(time.Millisecond))

	var (
		stop     atomic.Bool
		mu       sync.Mutex
		lat      []time.Duration
		wg       sync.WaitGroup
		inserted atomic.Int64
	)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; !stop.Load(); i++ {
				t0 := time.Now()
				_, err := db.Exec(`INSERT INTO invitations (inviter_id, invitee_email, invitee_name, invitation_code, unique_token, type, expires_at)
					VALUES ($1, 'live@example.com', 'En vivo', $2, $3, 'broker', now() + interval '7 days')`,
					owner, fmt.Sprintf("L%d-%d", w, i), fmt.Sprintf("live-%d-%d", w, i))
				d := time.Since(t0)
				if err != nil {
					b.Error(err)
					return
				}
				inserted.Add(1)
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
				time.Sleep(5 * time.Millisecond)
			}
		}()
	}
	time.Sleep(200 * time.Millisecond) // inserts are under way before the expiry starts
	b.ResetTimer()
	t0 := time.Now()
	n, err := store.ExpireInvitations(ctx, postgres.DefaultExpireBatch)
	elapsed := time.Since(t0)
	b.StopTimer()
	stop.Store(true)
	wg.Wait()
	if err != nil {
		b.Fatal(err)
	}
	if n != rows {
		b.Fatalf("expired %d rows, want %d", n, rows)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	p99 := lat[len(lat)*99/100]
	b.ReportMetric(elapsed.Seconds(), "expire-s")
	b.ReportMetric(float64(p99.Microseconds())/1000, "insert-p99-ms")
	b.ReportMetric(float64(slices.Max(lat).Microseconds())/1000, "insert-max-ms")
	b.ReportMetric(float64(inserted.Load()), "inserts")
	b.Logf("expired %d in %s; %d concurrent inserts, p99 %s, max %s", n, elapsed.Round(time.Millisecond),
		inserted.Load(), p99, slices.Max(lat))
	// Reported, not failed: on a shared, overloaded machine timings say little, and a failed
	// benchmark would stop `make bench` from recording the others.
	if elapsed > time.Minute || p99 > 50*time.Millisecond {
		b.Logf("TARGETS MISSED: expiry %s (want < 60s), insert p99 %s (want < 50ms)", elapsed, p99)
	}
}
