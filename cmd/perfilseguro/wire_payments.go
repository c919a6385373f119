package main

import (
	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/provider/devsim"
	"github.com/perfilseguro/perfilseguro/provider/stripe"
	"github.com/perfilseguro/perfilseguro/worker"
)

// useStripe reports whether the real payment provider is configured; otherwise the local
// checkout stand-in plays it (config refuses that in production).
func (a *app) useStripe() bool { return a.cfg.Payments.StripeSecretKey != "" }

func (a *app) checkoutStandIn() *devsim.Checkout {
	return &devsim.Checkout{DB: a.db, BaseURL: a.cfg.PublicBaseURL,
		WebhookURL: a.cfg.PublicBaseURL + "/api/webhooks/payments", WebhookSecret: a.cfg.Payments.StripeWebhookSecret}
}

func (a *app) wirePaymentsAPI(d *api.Deps) error {
	p := a.cfg.Payments
	d.Payments = api.PaymentsDeps{Enabled: p.Enabled, WebhookSecret: p.StripeWebhookSecret, Provider: "stripe"}
	if p.Enabled {
		// The stand-in's page serves the sessions it made: everyone's in development, partners'
		// test people's with Stripe (issue 36).
		d.Payments.Checkout = a.checkoutStandIn()
		if !a.useStripe() {
			d.Payments.Provider = "devsim"
		}
	}
	return nil
}

func (a *app) wirePaymentsWorker(d *worker.Deps) error {
	p := a.cfg.Payments
	switch {
	case !p.Enabled:
	case a.useStripe():
		d.Payments.Provider = stripe.New(stripe.Config{SecretKey: p.StripeSecretKey, WebhookSecret: p.StripeWebhookSecret,
			BaseURL: p.StripeBaseURL})
		d.Payments.TestProvider = *a.checkoutStandIn() // partners' test people
	default:
		d.Payments.Provider = *a.checkoutStandIn()
	}
	return nil
}
