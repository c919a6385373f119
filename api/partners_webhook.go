package api

import (
	"context"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

func (s *Server) mountPartnerWebhooks() {
	fuego.Put(s.f, "/api/admin/partners/{id}/webhook", s.setPartnerWebhook, option.Tags("Administración"),
		option.Summary("Configurar el webhook de notificaciones de un socio (genera un secreto nuevo)"))
}

// PartnerWebhookRequest sets (or, with an empty URL, removes) where a partner is notified.
type PartnerWebhookRequest struct {
	WebhookURL string `json:"webhookUrl"`
}

// PartnerWebhookResponse shows the new signing secret once; it is not shown again.
type PartnerWebhookResponse struct {
	Success       bool   `json:"success"`
	WebhookURL    string `json:"webhookUrl"`
	WebhookSecret string `json:"webhookSecret,omitempty"`
	Message       string `json:"message"`
}

func (s *Server) setPartnerWebhook(c fuego.ContextWithBody[PartnerWebhookRequest]) (PartnerWebhookResponse, error) {
	r := c.Request()
	id, err := pathUserID(c)
	if err != nil {
		return PartnerWebhookResponse{}, perfilseguro.FieldError("id", "ID de socio no válido")
	}
	// A new signing secret is a rotation: it wants a fresh passkey confirmation.
	sess, req, err := adminRequest(s, c, guard{action: "partner.webhook", targetKind: "partner", targetID: strconv.FormatInt(id, 10),
		roles: rolesManage, fresh: true})
	if err != nil {
		return PartnerWebhookResponse{}, err
	}
	hook := strings.TrimSpace(req.WebhookURL)
	secret := ""
	if hook != "" {
		u, err := url.Parse(hook)
		if err != nil || u.Host == "" || (u.Scheme != "https" && !(u.Scheme == "http" && !s.cfg.Production())) {
			return PartnerWebhookResponse{}, perfilseguro.FieldError("webhookUrl", "La URL del webhook debe ser https://…")
		}
		secret = "whsec_" + secure.NewToken(24)
	}
	err = s.adminAction(r, sess, "partner.webhook", "partner", func(ctx context.Context) (string, map[string]postgres.Change, error) {
		found, err := s.store.SetPartnerWebhook(ctx, id, hook, secret)
		if err == nil && !found {
			err = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "No existe ese socio.")
		}
		return strconv.FormatInt(id, 10), map[string]postgres.Change{"webhookUrl": {After: hook}}, err // the secret is never recorded
	})
	if err != nil {
		return PartnerWebhookResponse{}, err
	}
	msg := "Webhook configurado. Guarda el secreto: no se volverá a mostrar."
	if hook == "" {
		msg = "Webhook eliminado."
	}
	return PartnerWebhookResponse{Success: true, WebhookURL: hook, WebhookSecret: secret, Message: msg}, nil
}
