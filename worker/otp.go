package worker

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hibiken/asynq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// errCodeNotYetVisible asks for a retry: registration enqueues inside its transaction, so the
// worker can be faster than the commit.
var errCodeNotYetVisible = errors.New("code row not visible yet")

// errClaimHeld asks for a retry once the claim on a code has run out: the code is claimed, not
// delivered, and the claim is not known to be this run's. Usually another run is sending it and
// will mark it delivered (the retry then finds it delivered and stops). But the claim may be this
// job's own from an earlier attempt whose answer was lost: its UPDATE committed and reached the
// synchronous standby while the connection died with the old primary (measured in make scale's
// postgres-host). Ending the job there would leave a person with no code; retrying after the
// claim window sends it, at worst a second time when the other run's delivered mark was lost.
var errClaimHeld = errors.New("code claimed by another run and not delivered yet")

// commitWait is how long a job waits for its code's transaction to commit before it gives up
// and retries later (a retry would add seconds to the wait of a person watching their phone).
const commitWait = 500 * time.Millisecond

// handleSendOTP delivers one code to one destination. Codes that are used, expired or never
// committed are not sent. A phone code is claimed before it is sent and marked delivered once
// the provider accepted it, so that no other run sends it again: not a retry, not a run after a
// worker died, not a second hand-out of the job after a Redis failover (every run claims; the
// unclaimed first attempt of earlier versions could send twice then). The claim is released
// when the send fails, for the retry.
func (w *Worker) handleSendOTP(ctx context.Context, p jobs.SendOTPPayload) error {
	if time.Now().After(p.ExpiresAt) {
		return fmt.Errorf("code %d expired before delivery: %w", p.CodeID, asynq.SkipRetry)
	}
	code, err := w.deps.Sealer.Open(p.SealedCode)
	if err != nil {
		return fmt.Errorf("otp code: %v: %w", err, asynq.SkipRetry)
	}
	store := postgres.Store{DB: w.deps.DB}
	senders := w.sendersFor(p.TestPartner)
	send := func(ctx context.Context, to, code string) error { return w.sendPhoneCode(ctx, senders, to, code) }
	claimed := false
	if p.Via == jobs.ViaEmail {
		send = func(ctx context.Context, to, code string) error {
			return senders.email.SendEmail(ctx, otpEmail(to, code))
		}
	}
	switch {
	case p.Via == jobs.ViaEmail:
		// One code may go to both phone and e-mail: the e-mail run only checks that it is usable.
		row, err := codeWhenCommitted(ctx, store, p.Channel, p.CodeID)
		if err != nil || row.IsUsed {
			return err
		}
	default:
		ok, err := claimWhenCommitted(ctx, store, p.Channel, p.CodeID)
		if err != nil || !ok {
			return err
		}
		claimed = true
	}
	if w.deps.LogSecrets {
		w.deps.Logger.Info("otp code (development only)", "to", p.Destination, "code", code)
	}
	if err := send(ctx, p.Destination, code); err != nil {
		if claimed {
			if rerr := store.ReleaseCodeDelivery(context.WithoutCancel(ctx), p.Channel, p.CodeID); rerr != nil {
				w.deps.Logger.Error("release code delivery", "code_id", p.CodeID, "error", rerr)
			}
		}
		if errors.Is(err, perfilseguro.ErrPermanent) {
			return fmt.Errorf("deliver code %d: %w: %w", p.CodeID, err, asynq.SkipRetry)
		}
		return fmt.Errorf("deliver code %d: %w", p.CodeID, err)
	}
	if claimed {
		// Sent: recorded with the other codes sent in the next few milliseconds (otp_marks.go);
		// a failure to record it is logged, not retried (a retry would send it again).
		w.marks.add(p.Channel, p.CodeID)
	}
	return nil
}

// codeWhenCommitted reads the code row, waiting up to commitWait for it to become visible.
func codeWhenCommitted(ctx context.Context, store postgres.Store, channel string, id int64) (*postgres.CodeForDelivery, error) {
	deadline := time.Now().Add(commitWait)
	for {
		row, err := store.CodeForDelivery(ctx, channel, id)
		if err != nil || row != nil {
			return row, err
		}
		if err := waitForCommit(ctx, deadline); err != nil {
			return nil, err
		}
	}
}

// claimWhenCommitted claims the code's delivery; when the claim fails because the row is not
// visible yet (its transaction is still open) it waits up to commitWait and claims again.
func claimWhenCommitted(ctx context.Context, store postgres.Store, channel string, id int64) (bool, error) {
	deadline := time.Now().Add(commitWait)
	for {
		claimed, err := store.ClaimCodeDelivery(ctx, channel, id)
		if err != nil || claimed {
			return claimed, err
		}
		row, err := store.CodeForDelivery(ctx, channel, id)
		if err != nil {
			return false, err
		}
		if row != nil && (row.IsUsed || row.DeliveredAt != nil || time.Now().After(row.ExpiresAt)) {
			return false, nil // used, expired, or delivered by another run
		}
		if row != nil && row.SentAt != nil {
			return false, fmt.Errorf("code %d: %w", id, errClaimHeld)
		}
		// Not visible yet, or visible since the claim: claim again shortly (bounded by deadline).
		if err := waitForCommit(ctx, deadline); err != nil {
			return false, err
		}
	}
}

// waitForCommit sleeps a little before looking for an uncommitted row again, and gives up at deadline.
func waitForCommit(ctx context.Context, deadline time.Time) error {
	if time.Now().After(deadline) {
		return errCodeNotYetVisible
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(20 * time.Millisecond):
		return nil
	}
}

// sendPhoneCode tries WhatsApp and falls back to SMS when WhatsApp fails permanently.
func (w *Worker) sendPhoneCode(ctx context.Context, to senders, phone, code string) error {
	err := to.whatsapp.SendOTP(ctx, phone, code)
	if err == nil || !errors.Is(err, perfilseguro.ErrPermanent) {
		return err
	}
	w.deps.Logger.Warn("whatsapp failed permanently, falling back to SMS", "error", err)
	return to.sms.SendSMS(ctx, phone, fmt.Sprintf("Tu código de verificación de Perfil Seguro es %s. Vence en 10 minutos. No lo compartas con nadie.", code))
}

func otpEmail(to, code string) perfilseguro.Email {
	return perfilseguro.Email{
		To:      to,
		Subject: "Tu código de verificación de Perfil Seguro",
		Text:    fmt.Sprintf("Tu código de verificación de Perfil Seguro es %s.\n\nVence en 10 minutos. Si no lo solicitaste, ignora este mensaje.", code),
		HTML: fmt.Sprintf(`<p>Tu código de verificación de <strong>Perfil Seguro</strong> es:</p>
<p style="font-size:28px;letter-spacing:6px;font-weight:bold">%s</p>
<p>Vence en 10 minutos. Si no lo solicitaste, ignora este mensaje.</p>`, code),
	}
}
