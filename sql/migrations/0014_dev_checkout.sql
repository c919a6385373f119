-- +goose Up
-- The development checkout stand-in (provider/devsim Checkout) plays Stripe Checkout locally: its
-- sessions, their payment intents, OXXO vouchers and refunds live here, so the API (the page) and
-- the worker (GetCheckout, Refund, ExpireCheckout) share them. Never used in production (Stripe
-- is configured there).
CREATE TABLE dev_checkout_sessions (
    session_id          text PRIMARY KEY,             -- cs_test_…
    idempotency_key     text NOT NULL UNIQUE,         -- a repeated create returns the same session
    client_reference_id text,                         -- our payments row
    metadata            jsonb NOT NULL DEFAULT '{}',  -- payment_id, user_id, plan
    customer_email      text,
    product_name        text NOT NULL,
    amount_total        bigint NOT NULL CHECK (amount_total > 0), -- centavos
    currency            text NOT NULL DEFAULT 'mxn',
    success_url         text NOT NULL,                -- {CHECKOUT_SESSION_ID} already replaced
    cancel_url          text NOT NULL,
    status              text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'complete', 'expired')),
    payment_status      text NOT NULL DEFAULT 'unpaid' CHECK (payment_status IN ('paid', 'unpaid')),
    payment_method      text CHECK (payment_method IS NULL OR payment_method IN ('card', 'oxxo')),
    payment_intent_id   text NOT NULL UNIQUE,         -- pi_test_…, created with the session
    pi_status           text NOT NULL DEFAULT 'requires_payment_method'
                        CHECK (pi_status IN ('succeeded', 'requires_action', 'requires_payment_method', 'canceled')),
    voucher_number      text,                         -- the OXXO reference, once chosen
    voucher_expires_at  timestamptz,
    refund_id           text,                         -- re_test_…
    refund_key          text,                         -- the idempotency key the refund came with
    amount_refunded     bigint NOT NULL DEFAULT 0,
    expires_at          timestamptz NOT NULL,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE dev_checkout_sessions;
