package outbound_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/provider/outbound"
)

// TestIsPublicRefusesEveryNonPublicRange walks the IANA special-purpose registries of both
// families, one address (or more) per entry, plus multicast and the cloud metadata addresses.
func TestIsPublicRefusesEveryNonPublicRange(t *testing.T) {
	t.Parallel()
	refused := map[string][]string{
		"0.0.0.0/8 this network":             {"0.0.0.0", "0.0.0.1", "0.255.255.255"},
		"10.0.0.0/8 private":                 {"10.1.2.3"},
		"100.64.0.0/10 shared (CGNAT)":       {"100.64.0.1", "100.127.255.254"},
		"127.0.0.0/8 loopback":               {"127.0.0.1", "127.255.0.1"},
		"169.254.0.0/16 link local":          {"169.254.1.1"},
		"172.16.0.0/12 private":              {"172.16.0.1", "172.31.255.254"},
		"192.0.0.0/24 IETF assignments":      {"192.0.0.1", "192.0.0.8", "192.0.0.9", "192.0.0.10", "192.0.0.170"},
		"192.0.2.0/24 TEST-NET-1":            {"192.0.2.10"},
		"192.31.196.0/24 AS112-v4":           {"192.31.196.1"},
		"192.52.193.0/24 AMT":                {"192.52.193.1"},
		"192.88.99.0/24 6to4 relay anycast":  {"192.88.99.1"},
		"192.168.0.0/16 private":             {"192.168.1.1"},
		"192.175.48.0/24 AS112 delegation":   {"192.175.48.1"},
		"198.18.0.0/15 benchmarking":         {"198.18.0.1", "198.19.255.254"},
		"198.51.100.0/24 TEST-NET-2":         {"198.51.100.7"},
		"203.0.113.0/24 TEST-NET-3":          {"203.0.113.7"},
		"240.0.0.0/4 reserved":               {"240.0.0.1", "255.255.255.254"},
		"255.255.255.255/32 broadcast":       {"255.255.255.255"},
		"224.0.0.0/4 multicast":              {"224.0.0.1", "239.255.255.250"},
		"metadata AWS GCP Azure Oracle DO":   {"169.254.169.254", "169.254.170.2"},
		"metadata Azure WireServer":          {"168.63.129.16"},
		"metadata Alibaba Cloud":             {"100.100.100.200"},
		"metadata Oracle Cloud legacy":       {"192.0.0.192"},
		"metadata IBM Cloud service network": {"161.26.0.10"},
		"metadata AWS IPv6":                  {"fd00:ec2::254"},
		"::1/128 loopback":                   {"::1"},
		"::/128 unspecified":                 {"::"},
		"::/96 IPv4-compatible":              {"::7f00:1", "::a00:1", "::808:808"},
		"::ffff:0:0/96 IPv4-mapped private":  {"::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254"},
		"64:ff9b::/96 NAT64 private inside":  {"64:ff9b::a00:1", "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "64:ff9b::a83f:8110"},
		"64:ff9b:1::/48 local-use NAT64":     {"64:ff9b:1::1", "64:ff9b:1::808:808"},
		"100::/64 discard-only":              {"100::1"},
		"100:0:0:1::/64 dummy":               {"100:0:0:1::1"},
		"2001::/23 IETF assignments":         {"2001:1::1", "2001:1::2", "2001:2::1", "2001:3::1", "2001:4:112::1", "2001:10::1", "2001:20::1", "2001:30::1"},
		"2001::/32 Teredo":                   {"2001::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2"},
		"2001:db8::/32 documentation":        {"2001:db8::1"},
		"2002::/16 6to4":                     {"2002:7f00:1::1", "2002:a00:1::1", "2002:808:808::1"},
		"2620:4f:8000::/48 AS112 delegation": {"2620:4f:8000::1"},
		"3fff::/20 documentation":            {"3fff::1"},
		"5f00::/16 SRv6 SIDs":                {"5f00::1"},
		"fc00::/7 unique local":              {"fc00::1", "fd12:3456::1"},
		"fe80::/10 link local":               {"fe80::1"},
		"ff00::/8 multicast":                 {"ff02::1", "ff0e::1"},
		"outside 2000::/3, unallocated":      {"4000::1", "c000::1"},
		"zoned address":                      {"fe80::1%eth0"},
	}
	for name, addrs := range refused {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, a := range addrs {
				require.False(t, outbound.IsPublic(netip.MustParseAddr(a)), a)
			}
		})
	}
	require.False(t, outbound.IsPublic(netip.Addr{}), "the zero address")
	for _, a := range []string{"8.8.8.8", "1.1.1.1", "168.63.129.17", "100.128.0.1", "2606:4700:4700::1111",
		"2a00:1450:4001::200e", "::ffff:8.8.8.8", "64:ff9b::808:808", "2001:200::1"} {
		require.True(t, outbound.IsPublic(netip.MustParseAddr(a)), a)
	}
}

func TestPublicOnlyClientRefusesALoopbackServerThatAPlainClientReaches(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	defer srv.Close()
	res, err := outbound.Client(5 * time.Second).Get(srv.URL)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusNoContent, res.StatusCode, "the server answers")

	_, err = outbound.PublicOnlyClient(5 * time.Second).Get(srv.URL)
	require.Error(t, err)
	require.True(t, errors.Is(err, outbound.ErrNotPublic), err)
	// A name is checked after it resolves: localhost is refused like 127.0.0.1.
	_, err = outbound.PublicOnlyClient(5 * time.Second).Get("http://localhost:" + srv.URL[len("http://127.0.0.1:"):])
	require.True(t, errors.Is(err, outbound.ErrNotPublic), err)
}
