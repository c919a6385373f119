package api

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// Partner keys on the request path. A key comes as "Authorization: Bearer <key>" (the partner
// API) or in X-Partner-Key (the seed's widget routes). Every refusal says the same thing, so a
// caller never learns which part of a key was wrong; a known key is cached for keyCacheTTL, so
// the key check costs no database round trip on most requests (a revocation applies within it).

// keyCacheTTL bounds how long a revoked key or deactivated partner may still be accepted.
const keyCacheTTL = 10 * time.Second

// keyTouchEvery spaces the writes of a key's last use.
const keyTouchEvery = time.Minute

var (
	errSecretKey = httpError(http.StatusUnauthorized,
		"Llave secreta no válida. Usa una llave sk_live_… o sk_test_… activa de tu plataforma, desde tu servidor, en el encabezado Authorization: Bearer.")
	errPublishableKey = httpError(http.StatusUnauthorized,
		"Llave publicable no válida. Usa la llave pk_live_… o pk_test_… activa de tu plataforma.")
)

// keyCache keeps key → partner lookups off the database for a few seconds, and remembers when
// each key's last use was written.
type keyCache struct {
	byHash  ttlCache[*postgres.KeyedPartner] // by the key's hash; nil: no such live key
	mu      sync.Mutex
	touched map[int64]time.Time // key row id → last write of last_used_at
}

// bearerKey reads a partner key from Authorization: Bearer or X-Partner-Key.
func bearerKey(r *http.Request) string {
	if h := r.Header.Get("Authorization"); h != "" {
		if scheme, token, ok := strings.Cut(h, " "); ok && strings.EqualFold(scheme, "Bearer") {
			return strings.TrimSpace(token)
		}
		return h // malformed: refused as a bad key below
	}
	return strings.TrimSpace(r.Header.Get(partnerKeyHeader))
}

// partnerByKey finds the active partner of a well-formed, live key of the wanted kind; nil and
// no error when there is none (the caller refuses with its own message).
func (s *Server) partnerByKey(ctx context.Context, key string, want perfilseguro.PartnerKeyKind) (*postgres.KeyedPartner, error) {
	kind, _, ok := perfilseguro.ParsePartnerKey(key)
	if !ok || kind != want {
		return nil, nil
	}
	now := s.now()
	kp, err := s.keys.byHash.get(secure.HashToken(key), now, func() (*postgres.KeyedPartner, error) {
		return s.store.PartnerByKey(ctx, key)
	})
	if kp != nil {
		s.touchKey(kp.Key.ID, now)
	}
	return kp, err
}

// touchKey records a key's last use at most once a minute, off the request path.
func (s *Server) touchKey(id int64, now time.Time) {
	s.keys.mu.Lock()
	if s.keys.touched == nil {
		s.keys.touched = map[int64]time.Time{}
	}
	last, seen := s.keys.touched[id]
	due := !seen || now.Sub(last) >= keyTouchEvery
	if due {
		s.keys.touched[id] = now
	}
	s.keys.mu.Unlock()
	if !due {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.store.TouchPartnerKey(ctx, id, now); err != nil {
			s.logger.Warn("partner key last use not recorded", "key", id, "error", err)
		}
	}()
}

// requireSecretKey authenticates a partner's server; anything else is the one 401. A request with
// an Origin header comes from a browser, where a secret key must never be: refused loudly.
func (s *Server) requireSecretKey(r *http.Request) (*postgres.KeyedPartner, error) {
	if r.Header.Get("Origin") != "" {
		if sentSecretKey(r) {
			return nil, errSecretKeyInBrowser
		}
		return nil, errSecretKey // a browser is never a secret route's caller
	}
	kp, err := s.partnerByKey(r.Context(), bearerKey(r), perfilseguro.KeySecret)
	if err != nil {
		return nil, err
	}
	if kp == nil {
		return nil, errSecretKey
	}
	s.countPartnerRequest(r.Context(), kp.Partner.ID)
	return kp, nil
}
