// Package email sends multipart (plain text + HTML) e-mails over SMTP with
// github.com/wneessen/go-mail.
package email

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/wneessen/go-mail"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/tracing"
)

// TLS modes accepted in Config.TLS.
const (
	TLSNone     = "none"     // plain connection (local relays and the development inbox only)
	TLSStartTLS = "starttls" // upgrade with STARTTLS, mandatory (default; port 587)
	TLSImplicit = "tls"      // TLS from the first byte (SMTPS; port 465)
)

// SenderName is the display name on every outgoing e-mail.
const SenderName = "Perfil Seguro"

// Config holds the SMTP server and the sender address.
type Config struct {
	Host     string // SMTP server host name
	Port     int    // default 587 (starttls), 465 (tls) or 25 (none)
	Username string // empty: no SMTP AUTH
	Password string
	From     string // sender address, shown as "Perfil Seguro <From>"
	TLS      string // "none" | "starttls" | "tls"; default "starttls"
}

// Client sends e-mails by SMTP; it implements perfilseguro.EmailSender.
// It dials one connection per message, so it is safe for concurrent use.
type Client struct {
	cfg Config
}

var _ perfilseguro.EmailSender = (*Client)(nil)

// New returns a Client, filling the TLS mode and port defaults.
func New(cfg Config) *Client {
	if cfg.TLS == "" {
		cfg.TLS = TLSStartTLS
	}
	if cfg.Port == 0 {
		switch cfg.TLS {
		case TLSImplicit:
			cfg.Port = 465
		case TLSNone:
			cfg.Port = 25
		default:
			cfg.Port = 587
		}
	}
	return &Client{cfg: cfg}
}

// SendEmail delivers msg as multipart/alternative (text first, HTML preferred).
// A recipient the server permanently refuses (5xx on RCPT) or an invalid
// address wraps perfilseguro.ErrPermanent; connection and 4xx failures do not.
func (c *Client) SendEmail(ctx context.Context, msg perfilseguro.Email) (err error) {
	ctx, end := tracing.Call(ctx, "smtp", "send") // a client span; never the recipient or subject
	defer func() { end(err) }()
	m := mail.NewMsg()
	if err := m.FromFormat(SenderName, c.cfg.From); err != nil {
		return fmt.Errorf("email: sender address: %w", err)
	}
	if err := m.To(msg.To); err != nil {
		return fmt.Errorf("email: recipient address: %w: %w", perfilseguro.ErrPermanent, err)
	}
	m.Subject(msg.Subject)
	m.SetMessageID()
	m.SetDate()
	m.SetBodyString(mail.TypeTextPlain, msg.Text)
	if msg.HTML != "" {
		m.AddAlternativeString(mail.TypeTextHTML, msg.HTML)
	}

	client, err := mail.NewClient(c.cfg.Host, c.options()...)
	if err != nil {
		return fmt.Errorf("email: smtp client: %w", err)
	}
	if err := client.DialAndSendWithContext(ctx, m); err != nil {
		var sendErr *mail.SendError
		if errors.As(err, &sendErr) && sendErr.Reason == mail.ErrSMTPRcptTo && !sendErr.IsTemp() {
			return fmt.Errorf("email: %w: %w", perfilseguro.ErrPermanent, err)
		}
		return fmt.Errorf("email: %w", err)
	}
	return nil
}

func (c *Client) options() []mail.Option {
	opts := []mail.Option{mail.WithPort(c.cfg.Port), mail.WithTimeout(15 * time.Second)}
	switch c.cfg.TLS {
	case TLSImplicit:
		opts = append(opts, mail.WithSSL())
	case TLSNone:
		opts = append(opts, mail.WithTLSPolicy(mail.NoTLS))
	default:
		opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory))
	}
	if c.cfg.Username != "" {
		auth := mail.SMTPAuthAutoDiscover
		if c.cfg.TLS == TLSNone {
			// Plain-text AUTH was chosen explicitly by configuring TLS "none".
			auth = mail.SMTPAuthPlainNoEnc
		}
		opts = append(opts, mail.WithSMTPAuth(auth),
			mail.WithUsername(c.cfg.Username), mail.WithPassword(c.cfg.Password))
	}
	return opts
}
