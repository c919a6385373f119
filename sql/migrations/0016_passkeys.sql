-- +goose Up
-- Passkeys (WebAuthn): people sign in without a code, administrators (0017) with nothing else.
-- The package passkey/ runs the ceremonies and owns these two tables.

-- One row per registered passkey. user_id is nullable because 0017 adds admin_id and the check
-- that exactly one owner is set. backup_state says the passkey is synced (a password manager or
-- the platform's keychain); clone_warning marks a credential whose sign count went backwards:
-- it is refused from then on.
CREATE TABLE webauthn_credentials (
    id               bigserial PRIMARY KEY,
    user_id          bigint REFERENCES users (id) ON DELETE CASCADE,
    credential_id    bytea NOT NULL UNIQUE,
    public_key       bytea NOT NULL,
    attestation_type text NOT NULL DEFAULT '',
    aaguid           bytea,
    sign_count       bigint NOT NULL DEFAULT 0 CHECK (sign_count >= 0),
    transports       text[] NOT NULL DEFAULT '{}',
    backup_eligible  boolean NOT NULL DEFAULT false,
    backup_state     boolean NOT NULL DEFAULT false,
    user_verified    boolean NOT NULL DEFAULT false,
    clone_warning    boolean NOT NULL DEFAULT false,
    name             text NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
    created_at       timestamptz NOT NULL DEFAULT now(),
    last_used_at     timestamptz
);
CREATE INDEX webauthn_credentials_user_idx ON webauthn_credentials (user_id) WHERE user_id IS NOT NULL;

-- A ceremony in progress: go-webauthn's SessionData, bound to the browser that asked for it
-- (session_key: the SHA-256 of the ps_webauthn cookie) and to its owner for registrations and
-- re-authentications. Single-use (used_at) and short-lived (expires_at, 5 minutes).
CREATE TABLE webauthn_challenges (
    id           bigserial PRIMARY KEY,
    session_key  char(64) NOT NULL,
    purpose      text NOT NULL CHECK (purpose IN ('register', 'login', 'assert')),
    owner_kind   text NOT NULL CHECK (owner_kind IN ('user', 'admin')),
    owner_id     bigint,
    session_data jsonb NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL,
    used_at      timestamptz,
    CHECK ((purpose = 'login') = (owner_id IS NULL))
);
CREATE INDEX webauthn_challenges_session_idx ON webauthn_challenges (session_key, purpose);
CREATE INDEX webauthn_challenges_expires_idx ON webauthn_challenges (expires_at);
