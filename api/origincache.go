package api

import (
	"net/url"
	"strings"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/perfilseguro/perfilseguro/postgres"
)

// The Origin header of a widget call is the browser's word, and a stranger with curl writes what
// they like in it. It is checked for shape and length before anything else, and only origins
// registered to an active partner are remembered, at most originCacheSize of them: a flood of
// made-up origins costs one indexed lookup each, never memory (issue 54, item 5).

// maxOriginLength is the longest Origin accepted: a scheme, a host name of at most 253
// characters and a port fit well within it.
const maxOriginLength = 300

// originCacheSize bounds the registered origins remembered at once (least recently used first out).
const originCacheSize = 1024

// errBadOrigin refuses an Origin header that is not a browser's origin.
var errBadOrigin = httpError(400,
	"El encabezado Origin no es un origen válido: debe ser esquema y dominio, como https://tu-dominio.mx, sin ruta.")

// validOrigin reports whether origin has the shape a browser sends (RFC 6454): http or https, a
// host and an optional port, nothing else, in at most maxOriginLength characters. "null" (an
// opaque origin) is valid and matches no partner.
func validOrigin(origin string) bool {
	if origin == "null" {
		return true
	}
	if len(origin) > maxOriginLength {
		return false
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	if origin != u.Scheme+"://"+u.Host { // a path, query, fragment, user or escape
		return false
	}
	host := u.Hostname()
	if strings.HasPrefix(u.Host, "[") {
		return host != "" // an IPv6 literal, already checked by url.Parse
	}
	for _, c := range host {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	if p := u.Port(); len(p) > 5 || strings.Trim(p, "0123456789") != "" {
		return false
	}
	return host != ""
}

// originCache maps a registered origin to its active partner for ttl, bounded in size.
type originCache struct {
	ttl     time.Duration
	entries *lru.Cache[string, originEntry] // safe for concurrent use
}

type originEntry struct {
	partner *postgres.Partner
	expires time.Time
}

// newOriginCache keeps at most size registered origins, each for ttl.
func newOriginCache(size int, ttl time.Duration) *originCache {
	c, err := lru.New[string, originEntry](size)
	if err != nil {
		panic(err) // only a size below 1
	}
	return &originCache{ttl: ttl, entries: c}
}

// get returns origin's partner while its entry is fresh at now; otherwise it loads it, and keeps
// the answer only when a partner has that origin (nil: none, not remembered).
func (c *originCache) get(origin string, now time.Time, load func() (*postgres.Partner, error)) (*postgres.Partner, error) {
	if e, ok := c.entries.Get(origin); ok && now.Before(e.expires) {
		return e.partner, nil
	}
	p, err := load()
	if err != nil || p == nil {
		c.entries.Remove(origin) // an expired entry of a partner no longer there
		return nil, err
	}
	c.entries.Add(origin, originEntry{partner: p, expires: now.Add(c.ttl)})
	return p, nil
}

// len is the number of origins remembered.
func (c *originCache) len() int { return c.entries.Len() }
