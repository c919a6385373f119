-- +goose Up
-- Issue 36: partners' keys, verification sessions, and what each person shared with each partner.
--
-- Keys follow the payment providers' convention: pk_live_/pk_test_ (publishable, for browsers,
-- public by nature) and sk_live_/sk_test_ (secret, server to server, shown once). Every key is
-- stored as the SHA-256 of its whole text (the keys are random enough that a plain hash is the
-- right tool); hint is what a console may show: a publishable key whole, a secret key's prefix
-- and last four characters. Several keys of a kind may be alive at once, so they can be rotated.
CREATE TABLE partner_keys (
    id           bigserial PRIMARY KEY,
    partner_id   bigint NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    kind         text NOT NULL CHECK (kind IN ('publishable', 'secret')),
    livemode     boolean NOT NULL,
    token_hash   text NOT NULL UNIQUE,
    hint         text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    created_by   text,
    last_used_at timestamptz,
    revoked_at   timestamptz
);
CREATE INDEX partner_keys_partner_idx ON partner_keys (partner_id, created_at DESC);

-- Upgrade: each existing partner's key id (pk_ + 24 hex) becomes its live publishable key, so
-- integrations that send it keep working.
INSERT INTO partner_keys (partner_id, kind, livemode, token_hash, hint, created_at, created_by)
SELECT id, 'publishable', true, encode(sha256(convert_to(key_id, 'UTF8')), 'hex'), key_id, created_at, 'migración 0020'
FROM api_keys;

-- A partner's request that a person verify and share chosen claims (Stripe Identity's
-- VerificationSession). The client secret (id + "_secret_" + random) opens the hosted flow once:
-- the flow then carries a token of its own (flow_hash), so a leaked client secret is worth
-- nothing after that. Only hashes are kept.
CREATE TABLE partner_sessions (
    id             text PRIMARY KEY,          -- vs_ + 24 hex
    partner_id     bigint NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    livemode       boolean NOT NULL,
    reference      text NOT NULL,             -- the partner's own id for this person or case
    required_level smallint NOT NULL CHECK (required_level IN (2, 3)),
    claims         text[] NOT NULL,           -- asked: name, profileId, validUntil, level
    return_url     text,
    secret_hash    text NOT NULL UNIQUE,
    flow_hash      text UNIQUE,               -- the hosted flow's own token, made when it took the client secret
    status         text NOT NULL DEFAULT 'created'
        CHECK (status IN ('created', 'in_progress', 'completed', 'declined', 'expired', 'canceled')),
    user_id        bigint REFERENCES users (id) ON DELETE SET NULL,
    shared         jsonb,                     -- completed: the claims as shared
    proof          text,                      -- completed: a JWS over the session and the shared claims
    created_at     timestamptz NOT NULL DEFAULT now(),
    expires_at     timestamptz NOT NULL,
    opened_at      timestamptz,               -- the hosted flow took the client secret
    ended_at       timestamptz,
    CHECK ((status = 'completed') = (shared IS NOT NULL))
);
CREATE INDEX partner_sessions_partner_idx ON partner_sessions (partner_id, livemode, created_at DESC, id DESC);
CREATE INDEX partner_sessions_open_idx ON partner_sessions (expires_at) WHERE status IN ('created', 'in_progress');

-- What a person shared with a partner, and until when. A partner's secret key reads a person's
-- data only through a live grant; revoking it (Mi Perfil › Plataformas con acceso) stops that.
CREATE TABLE partner_grants (
    id         bigserial PRIMARY KEY,
    partner_id bigint NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    user_id    bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    livemode   boolean NOT NULL,
    claims     text[] NOT NULL,
    via        text NOT NULL CHECK (via IN ('session', 'invitation', 'presentation')),
    session_id text REFERENCES partner_sessions (id) ON DELETE SET NULL,
    granted_at timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz
);
CREATE UNIQUE INDEX partner_grants_current_idx ON partner_grants (partner_id, user_id, livemode) WHERE revoked_at IS NULL;
CREATE INDEX partner_grants_user_idx ON partner_grants (user_id, granted_at DESC);

-- +goose Down
DROP TABLE partner_grants;
DROP TABLE partner_sessions;
DROP TABLE partner_keys;
