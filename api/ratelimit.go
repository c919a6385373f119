package api

import (
	"context"
	"fmt"
	"math"
	"net"
	"net/http"

	"github.com/go-redis/redis_rate/v10"

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
}

// DefaultLimits are generous for people and tight for pumping and guessing.
var DefaultLimits = Limits{SendPerIP: 30, SendPerPhone: 6, SendPerEmail: 6, VerifyPerIP: 60, VerifyPerUser: 20, AdminLoginPerIP: 10}

// errUnavailable is what users read when Redis (limits, queue) is down: nothing was saved.
var errUnavailable = perfilseguro.Errorf(perfilseguro.EUNAVAILABLE,
	"El servicio no está disponible en este momento. Intenta nuevamente en unos minutos.")

// allow checks one limit; Redis being down fails closed (503), because limits guard abuse.
func (s *Server) allow(ctx context.Context, key string, perHour int) error {
	res, err := s.limiter.Allow(ctx, "rl:"+key, redis_rate.PerHour(perHour))
	if err != nil {
		return fmt.Errorf("rate limit %s: %v: %w", key, err, errUnavailable)
	}
	if res.Allowed == 0 {
		secs := int(math.Ceil(res.RetryAfter.Seconds()))
		return &apiError{Status: http.StatusTooManyRequests, RetryAfter: secs, Body: ErrorBody{
			Message: fmt.Sprintf("Demasiadas solicitudes. Intenta nuevamente en %s.", humanWait(secs))}}
	}
	return nil
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

// clientIP is the TCP peer (a proxy in front must be configured to pass the real one; see README).
func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
