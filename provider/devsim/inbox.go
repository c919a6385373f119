// Package devsim holds the local stand-ins for outside providers, used when no credentials are
// configured: every message lands in the development inbox (dev_messages) instead of a phone.
package devsim

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// Inbox implements WhatsApp, SMS and e-mail delivery into Postgres.
type Inbox struct {
	DB *sqlx.DB
	// TestPartner tags the messages of that partner's test people, which the inbox takes even in
	// production; the partner's console shows them (0: development, untagged).
	TestPartner int64
}

var (
	_ perfilseguro.WhatsAppSender    = Inbox{}
	_ perfilseguro.SMSSender         = Inbox{}
	_ perfilseguro.EmailSender       = Inbox{}
	_ perfilseguro.GooglePassUpdater = Inbox{}
)

// store files the message under the person the address (or profile ID) belongs to in the
// inbox's mode, so that deleting the person takes it even after they change that address.
func (in Inbox) store(ctx context.Context, channel, to, subject, text, html string) error {
	const q = `INSERT INTO dev_messages (channel, recipient, subject, body_text, body_html, test_partner_id, user_id)
		VALUES ($1, $2, NULLIF($3, ''), $4, NULLIF($5, ''), NULLIF($6, 0),
			(SELECT id FROM users WHERE coalesce(test_partner_id, 0) = $6 AND (email = $2 OR phone_number = $2 OR id_validado = $2)
			 ORDER BY id LIMIT 1))`
	if _, err := in.DB.ExecContext(ctx, q, channel, to, subject, text, html, in.TestPartner); err != nil {
		return fmt.Errorf("dev inbox: %w", err)
	}
	return nil
}

// PushPassUpdate records the APNs push a device would get: the development stand-in of APNs.
func (in Inbox) PushPassUpdate(ctx context.Context, pushToken string) error {
	return in.store(ctx, "apns", pushToken, "Pase actualizado", `{} (apns-push-type: background)`, "")
}

// UpdatePass records the Google Wallet object update the REST API would get: the development
// stand-in of Google Wallet (the dev key's objects never reach Google).
func (in Inbox) UpdatePass(ctx context.Context, p perfilseguro.PassData) error {
	state := map[string]string{perfilseguro.PassExpired: "EXPIRED", perfilseguro.PassRevoked: "INACTIVE",
		perfilseguro.PassDeleted: "INACTIVE", perfilseguro.PassAnnulled: "INACTIVE"}[p.Status]
	if state == "" {
		state = "ACTIVE"
	}
	text := fmt.Sprintf("PATCH genericObject %s: state %s, vigente hasta %s", p.ProfileID, state, perfilseguro.MexicoDate(p.ValidUntil))
	return in.store(ctx, "googlewallet", p.ProfileID, "Objeto de Google Wallet actualizado", text, "")
}

// SendOTP stores the text the WhatsApp authentication template would show.
func (in Inbox) SendOTP(ctx context.Context, phone, code string) error {
	return in.store(ctx, "whatsapp", phone, "", fmt.Sprintf("%s es tu código de verificación de Perfil Seguro. Por tu seguridad, no lo compartas.", code), "")
}

// SendInvitation stores the invitation template's text.
func (in Inbox) SendInvitation(ctx context.Context, phone string, inv perfilseguro.InvitationMessage) error {
	text := fmt.Sprintf("Hola %s, %s te invita a validar tu identidad en Perfil Seguro. Acepta aquí: %s", inv.InviteeName, inv.InviterName, inv.Link)
	return in.store(ctx, "whatsapp", phone, "", text, "")
}

// SendRenewalReminder stores the reminder template's text.
func (in Inbox) SendRenewalReminder(ctx context.Context, phone string, r perfilseguro.RenewalReminder) error {
	text := fmt.Sprintf("Hola %s, tu validación de identidad en Perfil Seguro (%s) vence el %s, en %d días. Renuévala aquí: %s",
		r.Name, r.ProfileID, perfilseguro.MexicoDate(r.ValidUntil), r.DaysLeft, r.Link)
	return in.store(ctx, "whatsapp", phone, "", text, "")
}

// SendPaymentNotice stores the payment template's text.
func (in Inbox) SendPaymentNotice(ctx context.Context, phone string, n perfilseguro.PaymentNotice) error {
	text := fmt.Sprintf("Hola %s, recibimos tu pago de %s por %s en OXXO. Ya puedes completar tu verificación biométrica: %s",
		n.Name, n.Amount, n.PlanName, n.Link)
	if n.Expired {
		text = fmt.Sprintf("Hola %s, tu ficha de pago en OXXO para %s venció sin pago. Puedes generar una nueva o pagar con tarjeta aquí: %s",
			n.Name, n.PlanName, n.Link)
	}
	return in.store(ctx, "whatsapp", phone, "", text, "")
}

// SendSMS stores an SMS.
func (in Inbox) SendSMS(ctx context.Context, phone, body string) error {
	return in.store(ctx, "sms", phone, "", body, "")
}

// SendEmail stores an e-mail with both bodies.
func (in Inbox) SendEmail(ctx context.Context, m perfilseguro.Email) error {
	return in.store(ctx, "email", m.To, m.Subject, m.Text, m.HTML)
}

// Message is one stored message, newest first when listed.
type Message struct {
	ID        int64     `db:"id" json:"id"`
	Channel   string    `db:"channel" json:"channel"`
	Recipient string    `db:"recipient" json:"to"`
	Subject   *string   `db:"subject" json:"subject,omitempty"`
	Text      string    `db:"body_text" json:"text"`
	HTML      *string   `db:"body_html" json:"html,omitempty"`
	CreatedAt time.Time `db:"created_at" json:"createdAt"`
}

// List returns the newest messages, optionally only those to one recipient.
func (in Inbox) List(ctx context.Context, to string, limit int) ([]Message, error) {
	const q = `SELECT id, channel, recipient, subject, body_text, body_html, created_at FROM dev_messages
		WHERE ($1 = '' OR recipient = $1) ORDER BY id DESC LIMIT $2`
	var ms []Message
	err := in.DB.SelectContext(ctx, &ms, q, to, limit)
	return ms, err
}
