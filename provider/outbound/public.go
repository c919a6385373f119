package outbound

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// ErrNotPublic is a connection refused because its address is not a public one. It is the root
// package's ErrAddressNotPublic, so code that may not import a provider (the worker's delivery
// log) recognises it with errors.Is.
var ErrNotPublic = perfilseguro.ErrAddressNotPublic

// PublicOnlyClient is Client for URLs that third parties choose (partner webhooks): it connects
// only to public unicast addresses. The check runs on the address actually dialed, after DNS,
// so a public name that resolves to 10.0.0.5, 127.0.0.1 or 169.254.169.254 (cloud metadata) is
// refused too, and redirects are not followed.
func PublicOnlyClient(timeout time.Duration) *http.Client {
	c := Client(timeout)
	t := c.Transport.(*http.Transport)
	d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second, Control: publicOnly}
	t.DialContext = d.DialContext
	t.Proxy = nil // a proxy would dial on our behalf, past the check
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return c
}

// publicOnly refuses a dial to an address that IsPublic refuses.
func publicOnly(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return fmt.Errorf("%w: %s", ErrNotPublic, host)
	}
	if !IsPublic(ip) {
		return fmt.Errorf("%w: %s", ErrNotPublic, ip)
	}
	return nil
}

// IsPublic reports whether ip is a public unicast address, one a third party's URL may make us
// connect to. The table is the IANA special-purpose address registries of both families
// (https://www.iana.org/assignments/iana-ipv4-special-registry,
// https://www.iana.org/assignments/iana-ipv6-special-registry), every entry refused, even the few
// anycast services the registry marks globally reachable (none of them receives webhooks), plus
// multicast and the cloud metadata addresses that sit in public space. An IPv6 address must also
// be in 2000::/3, the only block IANA allocates as global unicast, which leaves out the
// deprecated IPv4-compatible ::/96 (::7f00:1 is 127.0.0.1 to some stacks) and every block not
// yet allocated. Two IPv6 forms carry an IPv4 address that decides instead: IPv4-mapped
// ::ffff:0:0/96 and the well-known NAT64 prefix 64:ff9b::/96 (what a DNS64 resolver answers for
// an IPv4-only host), both public only when the IPv4 address inside is.
func IsPublic(ip netip.Addr) bool {
	ip = ip.Unmap()
	switch {
	case !ip.IsValid() || ip.Zone() != "":
		return false
	case ip.Is4():
		return !inAny(ip, nonPublicIPv4)
	case nat64.Contains(ip):
		b := ip.As16()
		return IsPublic(netip.AddrFrom4([4]byte(b[12:])))
	}
	return globalUnicastIPv6.Contains(ip) && !inAny(ip, nonPublicIPv6)
}

func inAny(ip netip.Addr, table []netip.Prefix) bool {
	for _, p := range table {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

var (
	nat64             = netip.MustParsePrefix("64:ff9b::/96") // IPv4/IPv6 translation, RFC 6052
	globalUnicastIPv6 = netip.MustParsePrefix("2000::/3")     // IANA IPv6 address space: global unicast
)

// nonPublicIPv4 is the IANA IPv4 special-purpose registry (entries nested in a listed one are
// named in its comment), multicast, and cloud metadata addresses outside those ranges.
var nonPublicIPv4 = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),        // "this network" (0.0.0.0/32 "this host" inside); Linux dials 0.x as local
	netip.MustParsePrefix("10.0.0.0/8"),       // private use
	netip.MustParsePrefix("100.64.0.0/10"),    // shared address space (carrier-grade NAT; Alibaba Cloud metadata 100.100.100.200)
	netip.MustParsePrefix("127.0.0.0/8"),      // loopback
	netip.MustParsePrefix("169.254.0.0/16"),   // link local (metadata 169.254.169.254 of AWS, GCP, Azure, Oracle, DigitalOcean; AWS ECS 169.254.170.2)
	netip.MustParsePrefix("172.16.0.0/12"),    // private use
	netip.MustParsePrefix("192.0.0.0/24"),     // IETF protocol assignments (service continuity /29, dummy .8, PCP and TURN anycast .9 .10, NAT64 discovery .170 .171; Oracle Cloud metadata .192)
	netip.MustParsePrefix("192.0.2.0/24"),     // documentation (TEST-NET-1)
	netip.MustParsePrefix("192.31.196.0/24"),  // AS112-v4
	netip.MustParsePrefix("192.52.193.0/24"),  // AMT
	netip.MustParsePrefix("192.88.99.0/24"),   // deprecated 6to4 relay anycast
	netip.MustParsePrefix("192.168.0.0/16"),   // private use
	netip.MustParsePrefix("192.175.48.0/24"),  // direct delegation AS112 service
	netip.MustParsePrefix("198.18.0.0/15"),    // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"),  // documentation (TEST-NET-2)
	netip.MustParsePrefix("203.0.113.0/24"),   // documentation (TEST-NET-3)
	netip.MustParsePrefix("240.0.0.0/4"),      // reserved (255.255.255.255/32 limited broadcast inside)
	netip.MustParsePrefix("224.0.0.0/4"),      // multicast (IANA multicast registry)
	netip.MustParsePrefix("168.63.129.16/32"), // Azure WireServer and metadata, in public space
	netip.MustParsePrefix("161.26.0.0/16"),    // IBM Cloud service network (metadata, DNS), in public space
}

// nonPublicIPv6 is the IANA IPv6 special-purpose registry's entries inside 2000::/3 (those
// outside it are refused with everything else outside it: ::1, ::, ::ffff:0:0/96 once its IPv4
// address is not public, 64:ff9b:1::/48 local-use NAT64, 100::/64 discard-only, 100:0:0:1::/64
// dummy, 5f00::/16 SRv6 SIDs, fc00::/7 unique local with AWS metadata fd00:ec2::254, fe80::/10
// link local, ff00::/8 multicast).
var nonPublicIPv6 = []netip.Prefix{
	netip.MustParsePrefix("2001::/23"),         // IETF protocol assignments: Teredo 2001::/32, PCP/TURN/DNS-SD anycast 2001:1::1-3, benchmarking 2001:2::/48, AMT 2001:3::/32, AS112-v6 2001:4:112::/48, ORCHID 2001:10::/28, ORCHIDv2 2001:20::/28, drone remote ID 2001:30::/28
	netip.MustParsePrefix("2001:db8::/32"),     // documentation
	netip.MustParsePrefix("2002::/16"),         // 6to4 (a relay would dial the IPv4 address inside)
	netip.MustParsePrefix("2620:4f:8000::/48"), // direct delegation AS112 service
	netip.MustParsePrefix("3fff::/20"),         // documentation
}
