package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/netip"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
)

// lookupFrom asks for path as a client at ip behind the trusted proxy (the test's loopback peer).
func (e *env) lookupFrom(t *testing.T, ip, path string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, e.srv.URL+path, nil)
	require.NoError(t, err)
	req.Header.Set("X-Forwarded-For", ip)
	res, err := e.srv.Client().Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	var body struct {
		Message string `json:"message"`
	}
	if res.Header.Get("Content-Type") != "image/png" {
		require.NoError(t, json.NewDecoder(res.Body).Decode(&body))
	}
	return res, body.Message
}

// behindProxy trusts the loopback peer as the load balancer, so X-Forwarded-For names the client.
func behindProxy(d *api.Deps) {
	d.Config.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("::1/128")}
}

// slowMissRefill keeps the default burst of misses but refills it one a minute: with the default
// pace (one every 3 s) a block ends within seconds, and on a slow machine (-race, two shared
// cores) a loop of lookups outlasted it and saw 404s again after its first 429.
func slowMissRefill(d *api.Deps) { d.Public = api.PublicLimits{MissesPerMinute: 1} }

func TestMadeUpIDsAreRefusedPastTheMissLimitAndRealOnesAreNot(t *testing.T) {
	t.Parallel()
	e := setup(t, behindProxy, slowMissRefill)
	var real []string
	for range 60 {
		_, pid := seedUser(t, e.db, seeded{Level: 3})
		real = append(real, pid)
	}
	// 60 made-up IDs from one address: the burst of misses is answered, then 429s.
	const scraper = "203.0.113.7"
	var notFound, limited int
	for i := range 60 {
		res, msg := e.lookupFrom(t, scraper, fmt.Sprintf("/api/verify/PS-9999-0000-%02d", i))
		switch res.StatusCode {
		case http.StatusNotFound:
			require.Zero(t, limited, "no 404 after the first 429")
			notFound++
		case http.StatusTooManyRequests:
			limited++
			secs, err := strconv.Atoi(res.Header.Get("Retry-After"))
			require.NoError(t, err, "429 carries Retry-After")
			require.Positive(t, secs)
			require.Contains(t, msg, "Demasiadas consultas desde tu conexión. Intenta nuevamente en ")
		default:
			t.Fatalf("made-up ID %d: status %d", i, res.StatusCode)
		}
	}
	burst := api.DefaultPublicLimits.MissBurst
	require.GreaterOrEqual(t, notFound, burst, "the burst of misses is answered")
	require.LessOrEqual(t, notFound, burst+1, "…and not much more within a second")
	require.Equal(t, 60-notFound, limited)

	// The blocked address cannot tell a real ID from a made-up one: everything is 429.
	res, _ := e.lookupFrom(t, scraper, "/api/verify/"+real[0])
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, "a blocked address learns nothing from a real ID")
	res, _ = e.lookupFrom(t, scraper, "/api/qr/"+real[0]+".png")
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, "nor from the QR image")

	// 60 real IDs from one address (a notary's office scanning codes): every one answered.
	for _, pid := range real {
		res, _ := e.lookupFrom(t, "198.51.100.20", "/api/verify/"+pid)
		require.Equal(t, http.StatusOK, res.StatusCode, pid)
		require.Equal(t, "noindex, nofollow", res.Header.Get("X-Robots-Tag"))
	}
}

func TestMalformedQRRequestsCountAsMisses(t *testing.T) {
	t.Parallel()
	e := setup(t, behindProxy, slowMissRefill)
	const ip = "203.0.113.8"
	statuses := map[int]int{}
	for i := range 30 {
		res, _ := e.lookupFrom(t, ip, fmt.Sprintf("/api/qr/PS-12-%d.png", i))
		statuses[res.StatusCode]++
	}
	require.Equal(t, 30, statuses[http.StatusBadRequest]+statuses[http.StatusTooManyRequests], "%v", statuses)
	require.Positive(t, statuses[http.StatusTooManyRequests], "malformed QR requests are limited: %v", statuses)
	res, _ := e.lookupFrom(t, ip, "/api/verify/PS-1234-5678-90")
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, "the block covers the verification too")
	res, _ = e.lookupFrom(t, "203.0.113.9", "/api/qr/PS-1234-5678-90.png")
	require.Equal(t, http.StatusOK, res.StatusCode, "another address is not affected")
}

func TestHitsAreLimitedLooselyPerAddress(t *testing.T) {
	t.Parallel()
	e := setup(t, behindProxy, func(d *api.Deps) { d.Public = api.PublicLimits{HitsPerMinute: 60, HitBurst: 5} })
	_, pid := seedUser(t, e.db, seeded{Level: 3})
	for i := range 5 {
		res, _ := e.lookupFrom(t, "198.51.100.30", "/api/verify/"+pid)
		require.Equal(t, http.StatusOK, res.StatusCode, "hit %d", i)
	}
	res, msg := e.lookupFrom(t, "198.51.100.30", "/api/verify/"+pid)
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode)
	require.Equal(t, "1", res.Header.Get("Retry-After"), "one hit a second comes back")
	require.Equal(t, "Demasiadas consultas desde tu conexión. Intenta nuevamente en 1 segundo.", msg)
	res, _ = e.lookupFrom(t, "198.51.100.31", "/api/verify/"+pid)
	require.Equal(t, http.StatusOK, res.StatusCode, "another address has its own allowance")
}

// Without TRUSTED_PROXIES the TCP peer is the client: a made-up X-Forwarded-For buys no fresh limit.
func TestXForwardedForFromAnUntrustedPeerIsIgnored(t *testing.T) {
	t.Parallel()
	e := setup(t)
	limited := 0
	for i := range 30 {
		res, _ := e.lookupFrom(t, fmt.Sprintf("203.0.113.%d", i), fmt.Sprintf("/api/verify/PS-9999-0001-%02d", i))
		if res.StatusCode == http.StatusTooManyRequests {
			limited++
		}
	}
	require.Positive(t, limited, "every request counted against the one real peer")
}
