package worker

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

// A delivered mark that Postgres cannot take during a failover is written again once it can:
// the code ends up delivered, not claimed for ever.
func TestDeliveredMarksSurviveAShortPostgresOutage(t *testing.T) {
	t.Parallel()
	db, dsn := pgtest.New(t)
	store := postgres.Store{DB: db}
	phone := "+525511112222"
	var codeID int64
	require.NoError(t, store.InTx(context.Background(), func(tx *sqlx.Tx) error {
		uid, _, err := store.InsertUser(context.Background(), tx, postgres.NewUser{Nombre: "Ana", Phone: &phone})
		if err != nil {
			return err
		}
		codeID, _, err = store.InsertCode(context.Background(), tx, postgres.NewCode{UserID: uid, Channel: postgres.ChannelPhone,
			Destination: phone, Purpose: "login", Hash: "h", ExpiresAt: time.Now().Add(10 * time.Minute)})
		return err
	}))

	proxy := pgtest.NewProxy(t, dsn)
	viaProxy, err := postgres.Open(context.Background(), proxy.URL(dsn))
	require.NoError(t, err)
	t.Cleanup(func() { viaProxy.Close() })
	marks := newDeliveredMarks(&postgres.Store{DB: viaProxy}, slog.Default())

	proxy.Down()
	marks.add(postgres.ChannelPhone, codeID)
	time.Sleep(markRetryEvery / 2) // the first flush has failed by now
	delivered := func() bool {
		var at *time.Time
		require.NoError(t, db.Get(&at, `SELECT delivered_at FROM verification_codes WHERE id = $1`, codeID))
		return at != nil
	}
	require.False(t, delivered(), "Postgres is down")
	proxy.Up()
	require.Eventually(t, delivered, 5*time.Second, 50*time.Millisecond, "written again once Postgres answers")
}
