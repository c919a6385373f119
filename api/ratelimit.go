package api

import (
	"context"
	"fmt"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// Limits are the per-key rate limits of sending and verifying codes (per hour unless named).
type Limits struct {
	SendPerIP       int // codes requested from one IP per hour
	SendPerPhone    int // codes sent to one phone per hour
	SendPerEmail    int // codes sent to one e-mail per hour
	VerifyPerIP     int // verification attempts from one IP per hour
	VerifyPerUser   int // verification attempts against one user per hour
	AdminLoginPerIP int // admin password attempts per IP per hour
	// PrivacyReadsPerUser: a person's reads of consents, ARCO requests, exports and consultations
	PrivacyReadsPerUser int
	// WidgetSendPerPartner: codes one partner's widget may have us send per hour, all people
	// together (a publishable key is public: this caps what anyone can spend in its name)
	WidgetSendPerPartner int
	// WidgetSendPerDestination: codes one partner's widget may send to one phone or e-mail per hour
	WidgetSendPerDestination int
	// WidgetLookupsPerMinute: status lookups (GET /api/widget/verify) one secret key may make per
	// minute, after a burst of WidgetLookupBurst (docs/partners.md states the budget)
	WidgetLookupsPerMinute int
	WidgetLookupBurst      int
}

// DefaultLimits are generous for people and tight for pumping and guessing.
var DefaultLimits = Limits{SendPerIP: 30, SendPerPhone: 6, SendPerEmail: 6, VerifyPerIP: 60, VerifyPerUser: 20, AdminLoginPerIP: 10,
	PrivacyReadsPerUser: 600, WidgetSendPerPartner: 300, WidgetSendPerDestination: 3,
	WidgetLookupsPerMinute: 60, WidgetLookupBurst: 30}

// errUnavailable is what users read when Redis (limits, queue) is down: nothing was saved.
var errUnavailable = perfilseguro.Errorf(perfilseguro.EUNAVAILABLE,
	"El servicio no está disponible en este momento. Intenta nuevamente en unos minutos.")

// limit is one per-hour limit on one key.
type limit struct {
	key     string
	perHour int
}

// allowAll is GCRA, the algorithm of go-redis/redis_rate (same keys, burst equal to the hourly
// rate), checked for several keys in one round trip: the event is charged to every key only when
// every key allows it, so a refusal on one limit does not use up the others.
// KEYS: the limit keys; ARGV: each key's events per hour. Returns {allowed, retry-after seconds}.
var allowAll = redis.NewScript(`
local jan_1_2017 = 1483228800
local t = redis.call("TIME")
local now = (t[1] - jan_1_2017) + (t[2] / 1000000)
local new_tats = {}
local retry_after = 0
for i, key in ipairs(KEYS) do
  local rate = tonumber(ARGV[i])
  local emission = 3600 / rate
  local tat = math.max(tonumber(redis.call("GET", key) or now), now)
  local new_tat = tat + emission
  local allow_at = new_tat - emission * rate
  if allow_at > now then
    retry_after = math.max(retry_after, allow_at - now)
  end
  new_tats[i] = new_tat
end
if retry_after > 0 then
  return {0, tostring(retry_after)}
end
for i, key in ipairs(KEYS) do
  redis.call("SET", key, new_tats[i], "EX", math.ceil(new_tats[i] - now))
end
return {1, "0"}
`)

// allow charges one event to each limit, or refuses with 429 and the longest wait. Redis being
// down fails closed (503), because limits guard abuse.
func (s *Server) allow(ctx context.Context, limits ...limit) error {
	keys := make([]string, len(limits))
	args := make([]any, len(limits))
	for i, l := range limits {
		keys[i], args[i] = s.limitKey(l.key), l.perHour
	}
	res, err := allowAll.Run(ctx, s.redis, keys, args...).Slice()
	if err != nil {
		return fmt.Errorf("rate limit %v: %v: %w", keys, err, errUnavailable)
	}
	if len(res) != 2 {
		return fmt.Errorf("rate limit %v: unexpected reply %v: %w", keys, res, errUnavailable)
	}
	if allowed, _ := res[0].(int64); allowed == 1 {
		return nil
	}
	wait, _ := res[1].(string)
	secs, err := strconv.ParseFloat(wait, 64)
	if err != nil {
		return fmt.Errorf("rate limit %v: retry-after %q: %w", keys, wait, errUnavailable)
	}
	retry := max(int(math.Ceil(secs)), 1)
	return &apiError{Status: http.StatusTooManyRequests, RetryAfter: retry, Body: ErrorBody{
		Message: fmt.Sprintf("Demasiadas solicitudes. Intenta nuevamente en %s.", humanWait(retry))}}
}

// limitKey is the Redis key of a limit. Limits are kept per e-mail, phone, address or id, and a
// key name must not carry them (Redis keeps keys for up to an hour, past an account's deletion:
// issue 54, item 24): the name keeps the limit's kind, readable, and a keyed hash (HMAC-SHA256
// with a key derived from SECRET_KEY) of the rest. One script touches every key of a request: the
// hash tag {rl} puts all of them in one Redis Cluster slot (a single server or Sentinel ignores it).
func (s *Server) limitKey(key string) string {
	kind, _, _ := strings.Cut(key, ":")
	return "rate:{rl}:" + kind + ":" + s.coder.Hash("rate-limit", key)[:32]
}

// humanWait says a wait in Spanish.
func humanWait(secs int) string {
	switch {
	case secs <= 1:
		return "1 segundo"
	case secs < 60:
		return fmt.Sprintf("%d segundos", secs)
	case secs < 120:
		return "1 minuto"
	default:
		return fmt.Sprintf("%d minutos", (secs+59)/60)
	}
}

// clientIP is the client's address: the one withClientIP found behind a trusted proxy, or else
// the TCP peer (see TRUSTED_PROXIES in docs/configuration.md).
func clientIP(r *http.Request) string {
	if ip, ok := r.Context().Value(clientIPKey).(string); ok {
		return ip
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
