package api

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestClientIPTrustsXForwardedForOnlyFromTrustedProxies(t *testing.T) {
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.0.2.1/32")}
	cases := []struct {
		name, peer string
		xff        []string
		want       string
	}{
		{"no proxy header", "10.1.1.1:5000", nil, "10.1.1.1"},
		{"client behind the load balancer", "10.1.1.1:5000", []string{"198.51.100.4"}, "198.51.100.4"},
		{"a client-written entry left of the real one is ignored", "10.1.1.1:5000", []string{"1.2.3.4, 198.51.100.4"}, "198.51.100.4"},
		{"two trusted hops", "10.1.1.1:5000", []string{"198.51.100.4, 192.0.2.1"}, "198.51.100.4"},
		{"split over two header lines", "10.1.1.1:5000", []string{"198.51.100.4", "10.2.2.2"}, "198.51.100.4"},
		{"untrusted peer: header ignored", "203.0.113.9:5000", []string{"198.51.100.4"}, "203.0.113.9"},
		{"malformed entry: the peer", "10.1.1.1:5000", []string{"198.51.100.4, not-an-ip"}, "10.1.1.1"},
		{"only trusted hops: the peer", "10.1.1.1:5000", []string{"10.3.3.3"}, "10.1.1.1"},
		{"IPv6 client", "10.1.1.1:5000", []string{"2001:db8::7"}, "2001:db8::7"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got string
			h := withClientIP(trusted)(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = clientIP(r) }))
			r := httptest.NewRequest(http.MethodGet, "/api/verify/PS-1234-5678-90", nil)
			r.RemoteAddr = c.peer
			for _, v := range c.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			h.ServeHTTP(httptest.NewRecorder(), r)
			require.Equal(t, c.want, got)
		})
	}
}
