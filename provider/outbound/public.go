package outbound

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// ErrNotPublic is a connection refused because its address is not a public one.
var ErrNotPublic = errors.New("outbound: the address is not public")

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

// publicOnly refuses a dial to an address that is loopback, private, link-local, multicast,
// unspecified, or in a shared or documentation range.
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

var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("100.64.0.0/10"),   // shared address space (carrier-grade NAT)
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved
	netip.MustParsePrefix("64:ff9b::/96"),    // NAT64 (could reach private IPv4)
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
}

// IsPublic reports whether ip is a public unicast address.
func IsPublic(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() || !ip.IsGlobalUnicast() {
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}
