package worker_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/jobs/redistest"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/worker"
)

// fakeTXT answers TXT records from a table (no entry: none).
type fakeTXT map[string][]string

func (f fakeTXT) LookupTXT(_ context.Context, name string) ([]string, error) {
	if r, ok := f[name]; ok {
		return r, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
}

// dialing returns a client that connects every request to srv, whatever the URL's host (the
// partner's site, as the public internet would route it).
func dialing(srv *httptest.Server) *http.Client {
	addr := srv.Listener.Addr().String()
	return &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}}}
}

// originPartner adds a partner on origin and returns its id and proof token.
func originPartner(t *testing.T, db *sqlx.DB, origin string) (int64, string) {
	t.Helper()
	var id int64
	var token string
	require.NoError(t, db.QueryRow(`INSERT INTO api_keys (key_id, partner_name, domain) VALUES ('pk_' || md5($1), 'CasaLista', $1)
		RETURNING id, origin_token`, origin).Scan(&id, &token))
	return id, token
}

// checkOrigin runs the origin check with deps and returns whether the origin is proven and the
// recorded failure.
func checkOrigin(t *testing.T, db *sqlx.DB, deps worker.OriginDeps, id int64, origin string) (bool, *string) {
	t.Helper()
	opt, _ := redistest.New(t)
	w := worker.New(opt, 1, 0, worker.Deps{DB: db, Origins: deps})
	task, err := jobs.NewOriginProofTask(id, origin, time.Now())
	require.NoError(t, err)
	require.NoError(t, w.Handler().ProcessTask(context.Background(), task))
	var proven bool
	var failure *string
	require.NoError(t, db.QueryRow(`SELECT origin_proven IS NOT DISTINCT FROM domain AND origin_proven_at IS NOT NULL, origin_check_error
		FROM api_keys WHERE id = $1 AND origin_checked_at IS NOT NULL`, id).Scan(&proven, &failure))
	return proven, failure
}

func TestAnOriginIsProvenByItsTXTRecord(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	id, token := originPartner(t, db, "https://casalista.example")
	proven, failure := checkOrigin(t, db, worker.OriginDeps{Resolver: fakeTXT{"casalista.example": {"v=spf1 -all", "otro"}}}, id, "https://casalista.example")
	require.False(t, proven)
	require.NotNil(t, failure)
	require.Contains(t, *failure, "No encontramos el registro TXT")

	proven, failure = checkOrigin(t, db, worker.OriginDeps{Resolver: fakeTXT{"casalista.example": {"v=spf1 -all", perfilseguro.OriginProofValue(token)}}},
		id, "https://casalista.example")
	require.True(t, proven)
	require.Nil(t, failure)
}

func TestAnOriginIsProvenByItsWellKnownFile(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	id, token := originPartner(t, db, "http://casalista.example")
	body := "otra cosa\n"
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != perfilseguro.OriginProofPath || r.Host != "casalista.example" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(body))
	}))
	defer site.Close()
	deps := worker.OriginDeps{Resolver: fakeTXT{}, HTTPClient: dialing(site)}
	proven, failure := checkOrigin(t, db, deps, id, "http://casalista.example")
	require.False(t, proven)
	require.Contains(t, *failure, perfilseguro.OriginProofPath)

	body = perfilseguro.OriginProofValue(token) + "\n"
	proven, failure = checkOrigin(t, db, deps, id, "http://casalista.example")
	require.True(t, proven)
	require.Nil(t, failure)

	// A new origin is unproven until it is checked again.
	_, err := db.Exec(`UPDATE api_keys SET domain = 'https://otra.example' WHERE id = $1`, id)
	require.NoError(t, err)
	require.False(t, dbBool(t, db, `SELECT origin_proven IS NOT DISTINCT FROM domain FROM api_keys WHERE id = $1`, id))
}

func TestAnOriginOnAPrivateOrLocalAddressIsNotChecked(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	// The real guard: a name of ours or a private address is refused before any connection.
	id, _ := originPartner(t, db, "http://10.0.0.1")
	proven, failure := checkOrigin(t, db, worker.OriginDeps{Resolver: fakeTXT{}}, id, "http://10.0.0.1")
	require.False(t, proven)
	require.Contains(t, *failure, "no apunta a una dirección pública")
	require.NotContains(t, *failure, "10.0.0.1", "the partner is not told what an address resolved to")

	id, _ = originPartner(t, db, "http://localhost:3000")
	proven, failure = checkOrigin(t, db, worker.OriginDeps{Resolver: fakeTXT{}}, id, "http://localhost:3000")
	require.False(t, proven)
	require.Contains(t, *failure, "modo de prueba funciona sin verificarlo")
}

func dbBool(t *testing.T, db *sqlx.DB, q string, args ...any) bool {
	t.Helper()
	var b bool
	require.NoError(t, db.Get(&b, q, args...))
	return b
}
