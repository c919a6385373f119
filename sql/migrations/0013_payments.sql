-- +goose Up
-- Plans and payment (DECISIONS.md): a person who is not eligible for the free plan buys one
-- before the biometric check. Each attempt to pay is a payments row; the provider's hosted
-- checkout session is created by a job, its webhooks are stored raw first (payment_webhooks)
-- and applied by a job, idempotently by event id.

-- The plan the person chose (the landing page's buttons carry it through registration).
ALTER TABLE users ADD COLUMN plan text CHECK (plan IS NULL OR plan IN ('free', 'one_year', 'five_years'));

CREATE TABLE payments (
    id                  bigserial PRIMARY KEY,
    -- Kept when the account is deleted (an accounting record), without anything personal.
    user_id             bigint REFERENCES users (id) ON DELETE SET NULL,
    plan                text NOT NULL CHECK (plan IN ('one_year', 'five_years')),
    years               integer NOT NULL CHECK (years IN (1, 5)),
    amount_centavos     bigint NOT NULL CHECK (amount_centavos > 0),
    currency            text NOT NULL DEFAULT 'mxn',
    provider            text NOT NULL,
    -- creating: the checkout job has not created the session yet; open: the person is on the
    -- checkout page; pending: an OXXO voucher awaits cash; paid; failed: the voucher expired
    -- unpaid; expired: the session ended unused; cancelled: replaced by a newer attempt;
    -- start_failed: the provider refused to create the session; refunded.
    status              text NOT NULL DEFAULT 'creating'
                        CHECK (status IN ('creating', 'open', 'pending', 'paid', 'failed', 'expired',
                                          'cancelled', 'start_failed', 'refunded')),
    idempotency_key     text NOT NULL UNIQUE,
    checkout_session_id text UNIQUE,
    checkout_url        text,
    checkout_expires_at timestamptz,
    payment_intent_id   text,
    payment_method      text,
    voucher_number      text,
    voucher_url         text,
    voucher_expires_at  timestamptz,
    start_error         text,
    paid_at             timestamptz,
    failed_at           timestamptz,
    refund_requested_at timestamptz,
    refund_id           text,
    refunded_at         timestamptz,
    consumed_at         timestamptz, -- the validation this payment bought was granted
    receipt_sent_at     timestamptz,
    paid_notice_sent_at timestamptz,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);
-- One attempt in progress per person: a double click finds it instead of creating another.
CREATE UNIQUE INDEX payments_one_attempt_per_user ON payments (user_id) WHERE status IN ('creating', 'open');
CREATE INDEX payments_user_idx ON payments (user_id, created_at DESC);
CREATE INDEX payments_unsettled_idx ON payments (updated_at) WHERE status IN ('creating', 'open', 'pending');
CREATE INDEX payments_intent_idx ON payments (payment_intent_id) WHERE payment_intent_id IS NOT NULL;

-- Provider webhooks as received (verified), one row per event id.
CREATE TABLE payment_webhooks (
    id           bigserial PRIMARY KEY,
    event_id     text NOT NULL UNIQUE,
    event_type   text NOT NULL,
    -- Read off the verified event when it arrives: the checkout session (checkout.session.*),
    -- or the refunded charge's payment intent and whether the refund is full (charge.refunded).
    session_id        text,
    payment_intent_id text,
    full_refund       boolean NOT NULL DEFAULT false,
    body         bytea NOT NULL,
    received_at  timestamptz NOT NULL DEFAULT now(),
    processed_at timestamptz,
    attempts     integer NOT NULL DEFAULT 0,
    last_error   text
);
CREATE INDEX payment_webhooks_unprocessed_idx ON payment_webhooks (received_at) WHERE processed_at IS NULL;

-- Partners hear of payments by the people who came through them (outbox, as in 0006 and 0008).
-- +goose StatementBegin
CREATE FUNCTION partner_payment_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO partner_deliveries (partner_id, user_id, event, payload)
    SELECT k.id, u.id, 'payment.completed',
           jsonb_build_object('event', 'payment.completed', 'userId', u.id, 'profileId', u.id_validado,
                              'plan', NEW.plan, 'years', NEW.years,
                              'amount', round(NEW.amount_centavos / 100.0, 2), 'currency', upper(NEW.currency),
                              'paidAt', NEW.paid_at)
    FROM users u JOIN api_keys k ON k.id = u.partner_id
    WHERE u.id = NEW.user_id AND k.is_active AND k.webhook_url IS NOT NULL;
    RETURN NULL;
END $$;
-- +goose StatementEnd

CREATE TRIGGER payments_partner_outbox
    AFTER UPDATE OF status ON payments
    FOR EACH ROW WHEN (NEW.status = 'paid' AND OLD.status IS DISTINCT FROM 'paid' AND NEW.user_id IS NOT NULL)
    EXECUTE FUNCTION partner_payment_outbox();

-- +goose Down
DROP TRIGGER payments_partner_outbox ON payments;
DROP FUNCTION partner_payment_outbox();
DROP TABLE payment_webhooks;
DROP TABLE payments;
ALTER TABLE users DROP COLUMN plan;
