-- +goose Up
-- The person's rights over their data (LFPDPPP): consents per purpose, ARCO requests with their
-- legal deadline, data exports, fresh confirmations for account deletion, and the partner that
-- looked a profile up.

-- Consents are an append-only log, one row per decision: the latest row of a purpose is its
-- state. Secondary purposes (partner_notifications, reminders) hold until the person objects.
-- A deleted account's consents are kept blocked (bloqueo) for the legal period, without the link
-- to the account but with its profile ID, then the retention job erases them.
ALTER TABLE consents
    ADD COLUMN purpose text NOT NULL DEFAULT 'privacy_notice'
        CHECK (purpose IN ('privacy_notice', 'biometric', 'partner_notifications', 'reminders')),
    ADD COLUMN granted boolean NOT NULL DEFAULT true,
    ADD COLUMN profile_id text,
    ADD COLUMN account_deleted_at timestamptz,
    ALTER COLUMN user_id DROP NOT NULL,
    DROP CONSTRAINT consents_user_id_fkey,
    ADD CONSTRAINT consents_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE SET NULL;
DROP INDEX consents_user_id_idx;
CREATE INDEX consents_user_purpose_idx ON consents (user_id, purpose, accepted_at DESC, id DESC);
CREATE INDEX consents_deleted_idx ON consents (account_deleted_at) WHERE account_deleted_at IS NOT NULL;

-- +goose StatementBegin
CREATE FUNCTION block_consents_of_deleted_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE consents SET profile_id = OLD.id_validado, account_deleted_at = now() WHERE user_id = OLD.id;
    RETURN OLD;
END $$;
-- +goose StatementEnd
CREATE TRIGGER users_block_consents BEFORE DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION block_consents_of_deleted_user();

-- Codes also confirm a new contact address and a sensitive action (account deletion).
ALTER TABLE verification_codes DROP CONSTRAINT verification_codes_purpose_check,
    ADD CONSTRAINT verification_codes_purpose_check
        CHECK (purpose IN ('register', 'login', 'widget', 'invitation', 'contact_change', 'confirmation'));
ALTER TABLE email_verification_codes DROP CONSTRAINT email_verification_codes_purpose_check,
    ADD CONSTRAINT email_verification_codes_purpose_check
        CHECK (purpose IN ('register', 'login', 'widget', 'invitation', 'contact_change', 'confirmation'));

-- A session that entered a confirmation code may delete its account for a few minutes.
ALTER TABLE user_sessions ADD COLUMN confirmed_at timestamptz;

-- A validation annulled by a change of name: the next biometric check is not paid again.
ALTER TABLE users ADD COLUMN revalidation_required_at timestamptz;

-- ARCO requests (acceso, rectificación, cancelación, oposición), from the app or recorded by an
-- administrator from an e-mail. The answer is due in 20 business days (due_at). The row outlives
-- the account (user_id set NULL) with the profile ID, as the record that the request was answered.
CREATE TABLE arco_requests (
    id          bigserial PRIMARY KEY,
    user_id     bigint REFERENCES users (id) ON DELETE SET NULL,
    profile_id  text NOT NULL,
    type        text NOT NULL CHECK (type IN ('acceso', 'rectificacion', 'cancelacion', 'oposicion')),
    state       text NOT NULL DEFAULT 'recibida' CHECK (state IN ('recibida', 'en_proceso', 'atendida', 'rechazada')),
    channel     text NOT NULL CHECK (channel IN ('app', 'correo')),
    details     text,
    resolution  text,
    received_at timestamptz NOT NULL DEFAULT now(),
    due_at      timestamptz NOT NULL,
    resolved_at timestamptz,
    CHECK ((state IN ('atendida', 'rechazada')) = (resolved_at IS NOT NULL))
);
CREATE INDEX arco_requests_open_idx ON arco_requests (received_at) WHERE state IN ('recibida', 'en_proceso');
CREATE INDEX arco_requests_user_idx ON arco_requests (user_id, received_at DESC);

-- Data exports: one a day per person (Mexico City's calendar day); the ZIP lives here until it
-- is downloaded once or its link expires (24 h), then the archive is erased.
CREATE TABLE data_exports (
    id              bigserial PRIMARY KEY,
    user_id         bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    arco_request_id bigint REFERENCES arco_requests (id) ON DELETE SET NULL,
    requested_day   date NOT NULL,
    status          text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'ready', 'downloaded', 'expired', 'failed')),
    token_hash      char(64) NOT NULL UNIQUE,
    -- The link's token sealed with SECRET_KEY until it is e-mailed (the retention run re-queues
    -- an export whose job Redis lost); only its hash stays after.
    sealed_token    text,
    archive         bytea,
    archive_sha256  text,
    requested_at    timestamptz NOT NULL DEFAULT now(),
    ready_at        timestamptz,
    notified_at     timestamptz,
    expires_at      timestamptz NOT NULL,
    downloaded_at   timestamptz,
    CHECK (status = 'ready' OR archive IS NULL)
);
-- A failed export does not spend the day's one.
CREATE UNIQUE INDEX data_exports_one_a_day ON data_exports (user_id, requested_day) WHERE status <> 'failed';
CREATE INDEX data_exports_user_idx ON data_exports (user_id, requested_at DESC);
CREATE INDEX data_exports_live_idx ON data_exports (expires_at) WHERE archive IS NOT NULL OR status IN ('queued', 'ready');

-- Lookups through a partner's API name the partner (the person sees which one looked).
ALTER TABLE verification_logs ADD COLUMN partner_id bigint REFERENCES api_keys (id) ON DELETE SET NULL;
CREATE INDEX verification_logs_scanned_idx ON verification_logs (scanned_at);
CREATE INDEX provider_webhooks_received_idx ON provider_webhooks (received_at);
CREATE INDEX payment_webhooks_received_idx ON payment_webhooks (received_at);
