package perfilseguro

import (
	"net"
	"net/url"
	"strings"
)

// A partner's origin is claimed, then proven (issue 54 item 12). Every way of setting one (the
// admin API, the console, `perfilseguro partner add`, a reactivation) goes through the store's
// one claim, which refuses Perfil Seguro's own origins (OwnOrigin) and an origin another active
// partner holds. Live mode then needs proof of control: a DNS TXT record on the origin's host, or
// a file at OriginProofPath on the origin, holding the partner's token (OriginProofValue), checked
// by the worker over public addresses only. Test mode works on an unproven origin.

// Where and how a partner proves it controls its origin.
const (
	// OriginProofPath is the file a partner may serve on its origin with its token.
	OriginProofPath = "/.well-known/perfilseguro-verification.txt"
	// OriginProofPrefix starts the TXT record (and the file's line): "perfilseguro-verification=<token>".
	OriginProofPrefix = "perfilseguro-verification="
)

// OriginProofValue is what the TXT record or the file must hold for token.
func OriginProofValue(token string) string { return OriginProofPrefix + token }

// MsgOriginOurs refuses an origin of Perfil Seguro itself.
const MsgOriginOurs = "Ese origen es de Perfil Seguro: registra el origen de tu propio sitio (ejemplo: https://www.casalista.mx)."

// OwnOrigin reports whether origin (normalized: scheme://host[:port]) is Perfil Seguro's own: the
// origin of one of ours (PUBLIC_BASE_URL), or any origin on the same host or below it (a
// subdomain of a named host). Another port of localhost or an IP address is not ours.
func OwnOrigin(origin string, ours []string) bool {
	host := originHost(origin)
	if host == "" {
		return false
	}
	for _, o := range ours {
		if strings.EqualFold(strings.TrimRight(o, "/"), origin) {
			return true
		}
		h := originHost(o)
		if h == "" || h == "localhost" || net.ParseIP(h) != nil {
			continue // development: only the exact origin is ours
		}
		if host == h || strings.HasSuffix(host, "."+h) {
			return true
		}
	}
	return false
}

// LoopbackOrigin reports whether origin names this machine (localhost, *.localhost or a loopback
// address): no outside check can prove it, so it stays in test mode.
func LoopbackOrigin(origin string) bool {
	host := originHost(origin)
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func originHost(origin string) string {
	u, err := url.Parse(strings.TrimSpace(origin))
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
}
