-- +goose Up
-- Issue 36, item 7: the partner console. A partner's own people (partner users) sign in with a
-- passkey only, under one of three roles, and manage their keys, webhook, allowed origin and
-- team; every change they make is in the audit trail as a 'partner_user'.

-- A partner's people. e-mails are unique within a partner (one person may work for two
-- platforms: two accounts, two passkeys). invited_by is the label of who invited them at the
-- time (an administrator's or a propietario's e-mail), so it reads right after they are gone. A
-- disabled user keeps their row: the audit trail names them.
CREATE TABLE partner_users (
    id          bigserial PRIMARY KEY,
    partner_id  bigint NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    email       text NOT NULL CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
    name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
    role        text NOT NULL CHECK (role IN ('propietario', 'desarrollador', 'lectura')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    invited_by  text,
    disabled_at timestamptz,
    UNIQUE (partner_id, email)
);
CREATE INDEX partner_users_partner_idx ON partner_users (partner_id);

-- Single-use enrolment links (7 days) where a partner user registers their passkey. Only the
-- hash of the token is kept.
CREATE TABLE partner_user_enrolments (
    id              bigserial PRIMARY KEY,
    token_hash      char(64) NOT NULL UNIQUE,
    partner_user_id bigint NOT NULL REFERENCES partner_users (id) ON DELETE CASCADE,
    created_at      timestamptz NOT NULL DEFAULT now(),
    expires_at      timestamptz NOT NULL,
    used_at         timestamptz
);
CREATE INDEX partner_user_enrolments_user_idx ON partner_user_enrolments (partner_user_id);

-- Console sessions: the SHA-256 of the ps_partner cookie, 8 hours from sign-in, revocable.
CREATE TABLE partner_console_sessions (
    id              bigserial PRIMARY KEY,
    token_hash      char(64) NOT NULL UNIQUE,
    partner_user_id bigint NOT NULL REFERENCES partner_users (id) ON DELETE CASCADE,
    created_at      timestamptz NOT NULL DEFAULT now(),
    expires_at      timestamptz NOT NULL,
    last_seen_at    timestamptz NOT NULL DEFAULT now(),
    revoked_at      timestamptz,
    ip_address      text,
    user_agent      text
);
CREATE INDEX partner_console_sessions_user_idx ON partner_console_sessions (partner_user_id) WHERE revoked_at IS NULL;

-- Partner users' passkeys live beside the people's and the administrators' (0016, 0017): exactly
-- one owner per credential; ceremonies may belong to a partner user.
ALTER TABLE webauthn_credentials
    ADD COLUMN partner_user_id bigint REFERENCES partner_users (id) ON DELETE CASCADE,
    DROP CONSTRAINT webauthn_credentials_one_owner,
    ADD CONSTRAINT webauthn_credentials_one_owner CHECK (num_nonnulls(user_id, admin_id, partner_user_id) = 1);
CREATE INDEX webauthn_credentials_partner_user_idx ON webauthn_credentials (partner_user_id) WHERE partner_user_id IS NOT NULL;
ALTER TABLE webauthn_challenges
    DROP CONSTRAINT webauthn_challenges_owner_kind_check,
    ADD CONSTRAINT webauthn_challenges_owner_kind_check CHECK (owner_kind IN ('user', 'admin', 'partner'));

-- The audit trail names partner users as actors.
ALTER TABLE audit_events
    DROP CONSTRAINT audit_events_actor_kind_check,
    ADD CONSTRAINT audit_events_actor_kind_check CHECK (actor_kind IN ('admin', 'person', 'system', 'partner_user'));

-- Webhook secret rotation with overlap: the secret replaced last keeps signing beside the new one
-- (two v1= entries in X-PerfilSeguro-Signature) until webhook_secret_previous_until, so a partner
-- can deploy the new secret without losing a notification.
ALTER TABLE api_keys
    ADD COLUMN webhook_secret_previous       text,
    ADD COLUMN webhook_secret_previous_until timestamptz,
    ADD CONSTRAINT api_keys_webhook_previous_check
        CHECK ((webhook_secret_previous IS NULL) = (webhook_secret_previous_until IS NULL));

-- +goose Down
ALTER TABLE api_keys DROP CONSTRAINT api_keys_webhook_previous_check,
    DROP COLUMN webhook_secret_previous_until, DROP COLUMN webhook_secret_previous;
-- The trail is append-only: events of partner users stay, so the old check is not validated on them.
ALTER TABLE audit_events DROP CONSTRAINT audit_events_actor_kind_check,
    ADD CONSTRAINT audit_events_actor_kind_check CHECK (actor_kind IN ('admin', 'person', 'system')) NOT VALID;
DELETE FROM webauthn_challenges WHERE owner_kind = 'partner';
ALTER TABLE webauthn_challenges DROP CONSTRAINT webauthn_challenges_owner_kind_check,
    ADD CONSTRAINT webauthn_challenges_owner_kind_check CHECK (owner_kind IN ('user', 'admin'));
DELETE FROM webauthn_credentials WHERE partner_user_id IS NOT NULL;
ALTER TABLE webauthn_credentials DROP CONSTRAINT webauthn_credentials_one_owner,
    DROP COLUMN partner_user_id,
    ADD CONSTRAINT webauthn_credentials_one_owner CHECK ((user_id IS NULL) <> (admin_id IS NULL));
DROP TABLE partner_console_sessions;
DROP TABLE partner_user_enrolments;
DROP TABLE partner_users;
