package api

import (
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"
	"github.com/go-fuego/fuego/param"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// The console's integration settings: keys (secrets shown once), the webhook and the rotation of
// its signing secret (the replaced one keeps signing for perfilseguro.WebhookSecretOverlap), and
// the delivery log with resends.

// Paging of the delivery log.
const (
	defaultDeliveryPage = 25
	maxDeliveryPage     = 100
)

// ConsoleKeyRequest asks for a new key.
type ConsoleKeyRequest struct {
	Kind string `json:"kind" enum:"secret,publishable"`
	Mode string `json:"mode" enum:"live,test"`
}

// ConsoleWebhookRequest sets (or, with an empty URL, removes) where the platform is notified.
type ConsoleWebhookRequest struct {
	URL string `json:"url"`
}

// ConsoleWebhookResponse is the platform's webhook: never the secret, except the once it is made.
type ConsoleWebhookResponse struct {
	URL       string `json:"url"` // "": none
	HasSecret bool   `json:"hasSecret"`
	// PreviousSecretUntil: until when the secret replaced last still signs beside the new one.
	PreviousSecretUntil *time.Time `json:"previousSecretUntil"`
	// Secret is the new signing secret, only in the answer that made it.
	Secret  string `json:"secret,omitempty"`
	Message string `json:"message,omitempty"`
}

// ConsoleDelivery is one notification of the delivery log.
type ConsoleDelivery struct {
	ID       int64  `json:"id"`
	Event    string `json:"event"`
	Status   string `json:"status" enum:"delivered,pending,retrying,failed"`
	Attempts int    `json:"attempts"`
	// StatusCode is the last attempt's HTTP status (null: no answer yet, or none).
	StatusCode *int `json:"statusCode"`
	// LastError is the last failure as stored ("HTTP 502 Bad Gateway", a network error).
	LastError     *string    `json:"lastError"`
	CreatedAt     time.Time  `json:"createdAt"`
	DeliveredAt   *time.Time `json:"deliveredAt"`
	NextAttemptAt *time.Time `json:"nextAttemptAt"` // pending and retrying only
}

// ConsoleDeliveryPage is one page of the delivery log, newest first.
type ConsoleDeliveryPage struct {
	Data    []ConsoleDelivery `json:"data"`
	HasMore bool              `json:"hasMore"`
}

func (s *Server) mountPartnerConsoleIntegration() {
	id := option.Path("id", "Identificador", param.Required())
	fuego.Get(s.f, "/api/socios/keys", s.consoleKeys, consoleTag,
		option.Query("mode", "live (producción) o test (prueba); sin él, todas"),
		option.Summary("Llaves de tu plataforma, de la más nueva a la más antigua (de las secretas solo se ve el inicio y el final)"))
	fuego.Post(s.f, "/api/socios/keys", s.consoleCreateKey, consoleTag, option.DefaultStatusCode(http.StatusCreated),
		option.Summary("Crear una llave (propietario o desarrollador): la llave completa se muestra solo en esta respuesta"))
	fuego.Post(s.f, "/api/socios/keys/{id}/revoke", s.consoleRevokeKey, consoleTag, id,
		option.Summary("Revocar una llave (propietario o desarrollador): deja de funcionar en segundos"))
	fuego.Get(s.f, "/api/socios/webhook", s.consoleWebhook, consoleTag,
		option.Summary("El webhook de tu plataforma: URL, si tiene secreto y hasta cuándo firma el secreto anterior"))
	fuego.Put(s.f, "/api/socios/webhook", s.consoleSetWebhook, consoleTag,
		option.Summary("Configurar la URL del webhook (propietario o desarrollador); el primer secreto se muestra una sola vez"))
	fuego.Post(s.f, "/api/socios/webhook/rotate", s.consoleRotateWebhook, consoleTag,
		option.Summary("Rotar el secreto de firma (propietario o desarrollador): el nuevo se muestra una vez; el anterior sigue firmando 24 horas"))
	fuego.Get(s.f, "/api/socios/deliveries", s.consoleDeliveries, consoleTag,
		option.QueryInt("limit", "Cuántas por página (1 a 100; 25 si se omite)"),
		option.QueryInt("before", "El id de la última notificación de la página anterior"),
		option.Summary("Registro de entregas del webhook, de la más reciente a la más antigua"))
	fuego.Post(s.f, "/api/socios/deliveries/{id}/resend", s.consoleResend, consoleTag, id,
		option.Summary("Reenviar una notificación ahora (propietario o desarrollador): un intento nuevo"))
}

// consoleMode reads ?mode=live|test; otherwise when it is absent.
func consoleMode(r *http.Request, otherwise string) (string, error) {
	switch m := r.URL.Query().Get("mode"); m {
	case "live", "test":
		return m, nil
	case "":
		return otherwise, nil
	}
	return "", perfilseguro.FieldError("mode", "El modo debe ser live (producción) o test (prueba).")
}

func (s *Server) consoleKeys(c fuego.ContextNoBody) ([]postgres.PartnerKey, error) {
	r := c.Request()
	sess, mode, err := s.consoleReadInMode(c, "")
	if err != nil {
		return nil, err
	}
	keys, err := s.store.PartnerKeys(r.Context(), sess.PartnerID)
	if err != nil {
		return nil, err
	}
	out := []postgres.PartnerKey{}
	for _, k := range keys {
		if mode == "" || k.Livemode == (mode == "live") {
			out = append(out, k)
		}
	}
	return out, nil
}

func (s *Server) consoleCreateKey(c fuego.ContextWithBody[ConsoleKeyRequest]) (postgres.NewKey, error) {
	r := c.Request()
	sess, req, err := consoleRequest(s, c, consoleGuard{action: perfilseguro.PartnerManageKeys, audit: "partner_console.key.create", targetKind: "partner_key"})
	if err != nil {
		return postgres.NewKey{}, err
	}
	kind := perfilseguro.PartnerKeyKind(req.Kind)
	fields := map[string]string{}
	if kind != perfilseguro.KeySecret && kind != perfilseguro.KeyPublishable {
		fields["kind"] = "El tipo de llave debe ser secret (secreta) o publishable (publicable)."
	}
	if req.Mode != "live" && req.Mode != "test" {
		fields["mode"] = "El modo debe ser live (producción) o test (prueba)."
	}
	for _, f := range []string{"kind", "mode"} {
		if m, ok := fields[f]; ok {
			return postgres.NewKey{}, &perfilseguro.Error{Code: perfilseguro.EINVALID, Message: m, Fields: fields}
		}
	}
	k, err := s.store.CreateConsoleKey(r.Context(), sess.PartnerID, kind, req.Mode == "live", sess.Email,
		s.partnerEvent(r, sess, "partner_console.key.create"))
	if err != nil {
		return postgres.NewKey{}, err
	}
	setStatus(c, http.StatusCreated)
	return k, nil
}

func (s *Server) consoleRevokeKey(c fuego.ContextNoBody) (postgres.PartnerKey, error) {
	r := c.Request()
	sess, id, err := s.consoleCallOn(c, consoleGuard{action: perfilseguro.PartnerManageKeys, audit: "partner_console.key.revoke",
		targetKind: "partner_key"})
	if err != nil {
		return postgres.PartnerKey{}, err
	}
	return s.store.RevokeConsoleKey(r.Context(), sess.PartnerID, id, s.now(), s.partnerEvent(r, sess, "partner_console.key.revoke"))
}

func (s *Server) webhookJSON(w postgres.WebhookSettings) ConsoleWebhookResponse {
	out := ConsoleWebhookResponse{HasSecret: w.HasSecret}
	if w.URL != nil {
		out.URL = *w.URL
	}
	if w.PreviousUntil != nil && w.PreviousUntil.After(s.now()) {
		out.PreviousSecretUntil = w.PreviousUntil
	}
	return out
}

func (s *Server) consoleWebhook(c fuego.ContextNoBody) (ConsoleWebhookResponse, error) {
	r := c.Request()
	sess, err := s.consoleCall(c, consoleGuard{action: perfilseguro.PartnerRead})
	if err != nil {
		return ConsoleWebhookResponse{}, err
	}
	w, err := s.store.PartnerWebhook(r.Context(), sess.PartnerID)
	if err != nil {
		return ConsoleWebhookResponse{}, err
	}
	return s.webhookJSON(w), nil
}

// newWebhookSecret is a fresh signing secret: "whsec_" and 48 hex characters.
func newWebhookSecret() string { return "whsec_" + secure.NewToken(24) }

// checkWebhookURL accepts an https URL (http too outside production) of a public host: in
// production a partner cannot point our worker at a loopback, private or link-local address.
func (s *Server) checkWebhookURL(raw string) error {
	bad := perfilseguro.FieldError("url", "La URL del webhook debe ser https://… de un servidor público (hasta 2000 caracteres).")
	u, err := url.Parse(raw)
	if err != nil || len(raw) > 2000 || u.Host == "" || u.User != nil || u.Fragment != "" {
		return bad
	}
	if u.Scheme != "https" && !(u.Scheme == "http" && !s.cfg.Production()) {
		return bad
	}
	if !s.cfg.Production() {
		return nil
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || strings.HasSuffix(host, ".local") || strings.HasSuffix(host, ".internal") {
		return bad
	}
	if ip := net.ParseIP(host); ip != nil && (ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() ||
		ip.IsLinkLocalMulticast() || ip.IsUnspecified() || ip.IsMulticast()) {
		return bad
	}
	return nil
}

func (s *Server) consoleSetWebhook(c fuego.ContextWithBody[ConsoleWebhookRequest]) (ConsoleWebhookResponse, error) {
	r := c.Request()
	sess, req, err := consoleRequest(s, c, consoleGuard{action: perfilseguro.PartnerManageWebhook, audit: "partner_console.webhook.url", targetKind: "partner"})
	if err != nil {
		return ConsoleWebhookResponse{}, err
	}
	hook := strings.TrimSpace(req.URL)
	if hook != "" {
		if err := s.checkWebhookURL(hook); err != nil {
			return ConsoleWebhookResponse{}, err
		}
	}
	secret := newWebhookSecret()
	w, created, err := s.store.SetConsoleWebhookURL(r.Context(), sess.PartnerID, hook, secret,
		s.partnerEvent(r, sess, "partner_console.webhook.url"))
	if err != nil {
		return ConsoleWebhookResponse{}, err
	}
	out := s.webhookJSON(w)
	switch {
	case created:
		out.Secret = secret
		out.Message = "Webhook configurado. Guarda el secreto de firma ahora: no volverás a verlo."
	case hook == "":
		out.Message = "Webhook eliminado: ya no enviaremos notificaciones a tu plataforma."
	default:
		out.Message = "URL del webhook guardada. El secreto de firma no cambió."
	}
	return out, nil
}

func (s *Server) consoleRotateWebhook(c fuego.ContextNoBody) (ConsoleWebhookResponse, error) {
	r := c.Request()
	sess, err := s.consoleCall(c, consoleGuard{action: perfilseguro.PartnerManageWebhook, audit: "partner_console.webhook.rotate", targetKind: "partner"})
	if err != nil {
		return ConsoleWebhookResponse{}, err
	}
	secret := newWebhookSecret()
	w, err := s.store.RotateWebhookSecret(r.Context(), sess.PartnerID, secret, s.now().Add(perfilseguro.WebhookSecretOverlap),
		s.partnerEvent(r, sess, "partner_console.webhook.rotate"))
	if err != nil {
		return ConsoleWebhookResponse{}, err
	}
	out := s.webhookJSON(w)
	out.Secret = secret
	out.Message = "Nuevo secreto de firma. Guárdalo ahora: no volverás a verlo."
	if out.PreviousSecretUntil != nil {
		out.Message += " El anterior seguirá firmando 24 horas."
	}
	return out, nil
}

// deliveryNote is a stored failure as the partner reads it. Attempts logged before the worker wrote
// AddressNotPublicNote named the private address the webhook resolved to: they read as the note.
func deliveryNote(stored *string) *string {
	if stored != nil && strings.Contains(*stored, perfilseguro.ErrAddressNotPublic.Error()) {
		note := perfilseguro.AddressNotPublicNote
		return &note
	}
	return stored
}

func (s *Server) deliveryJSON(d postgres.DeliveryLogEntry) ConsoleDelivery {
	out := ConsoleDelivery{ID: d.ID, Event: d.Event, Attempts: d.Attempts, StatusCode: d.StatusCode, LastError: deliveryNote(d.LastError),
		CreatedAt: d.CreatedAt, DeliveredAt: d.DeliveredAt}
	switch {
	case d.DeliveredAt != nil:
		out.Status = "delivered"
	case d.Attempts >= postgres.MaxDeliveryAttempts:
		out.Status = "failed"
	case d.Attempts == 0:
		out.Status, out.NextAttemptAt = "pending", &d.NextAttemptAt
	default:
		out.Status, out.NextAttemptAt = "retrying", &d.NextAttemptAt
	}
	return out
}

func (s *Server) consoleDeliveries(c fuego.ContextNoBody) (ConsoleDeliveryPage, error) {
	r := c.Request()
	sess, err := s.consoleCall(c, consoleGuard{action: perfilseguro.PartnerRead})
	if err != nil {
		return ConsoleDeliveryPage{}, err
	}
	q := r.URL.Query()
	size := defaultDeliveryPage
	if raw := q.Get("limit"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > maxDeliveryPage {
			return ConsoleDeliveryPage{}, perfilseguro.FieldError("limit", "limit debe ser un número de 1 a 100.")
		}
		size = n
	}
	var before int64
	if raw := q.Get("before"); raw != "" {
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || n < 1 {
			return ConsoleDeliveryPage{}, perfilseguro.FieldError("before", "before debe ser el id de una notificación.")
		}
		before = n
	}
	rows, err := s.store.PartnerDeliveryLog(r.Context(), sess.PartnerID, before, size+1)
	if err != nil {
		return ConsoleDeliveryPage{}, err
	}
	page, more := pageOf(rows, size, s.deliveryJSON)
	return ConsoleDeliveryPage{Data: page, HasMore: more}, nil
}

func (s *Server) consoleResend(c fuego.ContextNoBody) (ConsoleDelivery, error) {
	r := c.Request()
	sess, id, err := s.consoleCallOn(c, consoleGuard{action: perfilseguro.PartnerResend, audit: "partner_console.delivery.resend",
		targetKind: "partner_delivery"})
	if err != nil {
		return ConsoleDelivery{}, err
	}
	d, err := s.store.ResendDelivery(r.Context(), sess.PartnerID, id, s.now(), s.partnerEvent(r, sess, "partner_console.delivery.resend"))
	if err != nil {
		return ConsoleDelivery{}, err
	}
	// After the commit; if Redis is down, the dispatch sweep sends it (it is due now, and the
	// attempt number in the task id keeps it from going out twice).
	task, err := jobs.NewPartnerNotifyTask(d.ID, d.Attempts+1)
	if err := jobs.Enqueue(r.Context(), s.queue, task, err); err != nil {
		s.logger.WarnContext(r.Context(), "partner resend not enqueued: the dispatch sweep will send it", "delivery", d.ID, "error", err)
	}
	out := s.deliveryJSON(d)
	if out.Status == "failed" { // past the automatic attempts, but this one is on its way
		out.Status, out.NextAttemptAt = "retrying", &d.NextAttemptAt
	}
	return out, nil
}
