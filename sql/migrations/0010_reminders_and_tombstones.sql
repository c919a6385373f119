-- +goose Up
-- Renewal reminders (issue 14): 30 and 7 days before a validity ends, by e-mail and by WhatsApp,
-- each sent once. A row is written first (the outbox), then a job delivers it and marks it; a
-- renewal moves valid_until, so the next validity gets reminders of its own.
CREATE TABLE expiry_reminders (
    id          bigserial PRIMARY KEY,
    user_id     bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    valid_until timestamptz NOT NULL,
    days_before smallint NOT NULL CHECK (days_before IN (30, 7)),
    channel     text NOT NULL CHECK (channel IN ('email', 'whatsapp')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    sent_at     timestamptz,
    failed_at   timestamptz, -- refused for good (or no longer true): never retried
    failure     text,
    UNIQUE (user_id, valid_until, days_before, channel)
);
CREATE INDEX expiry_reminders_unsent_idx ON expiry_reminders (id) WHERE sent_at IS NULL AND failed_at IS NULL;

-- A deleted account's wallet passes are voided, not left saying "ID Validado": its Apple pass
-- token outlives the account, detached from it (no personal data), so the devices that hold
-- the pass can fetch the voided one; a tombstone names what to void until it is done.
ALTER TABLE apple_pass_tokens DROP CONSTRAINT apple_pass_tokens_pkey;
ALTER TABLE apple_pass_tokens ALTER COLUMN user_id DROP NOT NULL;
ALTER TABLE apple_pass_tokens ADD CONSTRAINT apple_pass_tokens_user_key UNIQUE (user_id);
ALTER TABLE apple_pass_tokens DROP CONSTRAINT apple_pass_tokens_user_id_fkey,
    ADD CONSTRAINT apple_pass_tokens_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE apple_pass_tokens
    ADD COLUMN voided_content bytea,      -- the signed voided .pkpass of a deleted account
    ADD COLUMN voided_at      timestamptz;

CREATE TABLE wallet_tombstones (
    serial_number text PRIMARY KEY, -- the deleted profile's ID
    apple         boolean NOT NULL,
    google        boolean NOT NULL,
    deleted_at    timestamptz NOT NULL DEFAULT now(),
    voided_at     timestamptz
);
CREATE INDEX wallet_tombstones_pending_idx ON wallet_tombstones (deleted_at) WHERE voided_at IS NULL;

-- +goose StatementBegin
CREATE FUNCTION wallet_tombstone_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    has_apple  boolean := EXISTS (SELECT 1 FROM apple_pass_tokens WHERE user_id = OLD.id);
    has_google boolean := EXISTS (SELECT 1 FROM wallet_passes WHERE user_id = OLD.id AND kind = 'google');
BEGIN
    IF has_apple OR has_google THEN
        INSERT INTO wallet_tombstones (serial_number, apple, google) VALUES (OLD.id_validado, has_apple, has_google)
        ON CONFLICT (serial_number) DO UPDATE SET apple = EXCLUDED.apple, google = EXCLUDED.google,
            deleted_at = now(), voided_at = NULL;
    END IF;
    RETURN OLD;
END $$;
-- +goose StatementEnd
-- BEFORE: the cascades that remove the passes run after the row is gone.
CREATE TRIGGER users_wallet_tombstone BEFORE DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION wallet_tombstone_on_delete();

-- The development stand-in of the Google Wallet REST API writes its object updates to the inbox.
ALTER TABLE dev_messages DROP CONSTRAINT dev_messages_channel_check,
    ADD CONSTRAINT dev_messages_channel_check CHECK (channel IN ('whatsapp', 'sms', 'email', 'apns', 'googlewallet'));

-- +goose Down
DROP TRIGGER users_wallet_tombstone ON users;
DROP FUNCTION wallet_tombstone_on_delete();
DROP TABLE wallet_tombstones;
DELETE FROM apple_pass_tokens WHERE user_id IS NULL;
ALTER TABLE apple_pass_tokens DROP COLUMN voided_content, DROP COLUMN voided_at,
    DROP CONSTRAINT apple_pass_tokens_user_key, ALTER COLUMN user_id SET NOT NULL, ADD PRIMARY KEY (user_id),
    DROP CONSTRAINT apple_pass_tokens_user_id_fkey,
    ADD CONSTRAINT apple_pass_tokens_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE;
DROP TABLE expiry_reminders;
