package worker

import (
	"context"
	"fmt"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// TestInbox takes a partner's test people's messages in place of WhatsApp, SMS and e-mail (the
// development inbox, tagged with the partner so that its console shows them).
type TestInbox interface {
	perfilseguro.WhatsAppSender
	perfilseguro.SMSSender
	perfilseguro.EmailSender
}

// senders are the channels that reach one person.
type senders struct {
	whatsapp perfilseguro.WhatsAppSender
	sms      perfilseguro.SMSSender
	email    perfilseguro.EmailSender
}

// sendersFor picks the channels for a person's mode (perfilseguro.User.Mode): the configured
// providers for live people, the test inbox for a partner's test people. Never a real provider
// for a test person: without a test inbox their messages fail for good.
func (w *Worker) sendersFor(mode int64) senders {
	switch {
	case mode == perfilseguro.Live:
		return senders{w.deps.WhatsApp, w.deps.SMS, w.deps.Email}
	case w.deps.TestInbox != nil:
		in := w.deps.TestInbox(mode)
		return senders{in, in, in}
	default:
		return senders{noTestInbox{}, noTestInbox{}, noTestInbox{}}
	}
}

// noTestInbox refuses every message: a worker wired without a test inbox.
type noTestInbox struct{}

var errNoTestInbox = fmt.Errorf("test person's message without a test inbox: %w", perfilseguro.ErrPermanent)

func (noTestInbox) SendOTP(context.Context, string, string) error { return errNoTestInbox }
func (noTestInbox) SendInvitation(context.Context, string, perfilseguro.InvitationMessage) error {
	return errNoTestInbox
}
func (noTestInbox) SendRenewalReminder(context.Context, string, perfilseguro.RenewalReminder) error {
	return errNoTestInbox
}
func (noTestInbox) SendPaymentNotice(context.Context, string, perfilseguro.PaymentNotice) error {
	return errNoTestInbox
}
func (noTestInbox) SendSMS(context.Context, string, string) error       { return errNoTestInbox }
func (noTestInbox) SendEmail(context.Context, perfilseguro.Email) error { return errNoTestInbox }
