-- +goose Up
-- The whole schema of SPEC.md §3 plus what DECISIONS.md needs. snake_case columns;
-- secrets (codes, tokens, sessions) are stored only as HMAC/SHA-256 hashes.

-- Partners (api_keys) come first: users may reference the partner they came through.
CREATE TABLE api_keys (
    id             bigserial PRIMARY KEY,
    key_id         text NOT NULL UNIQUE,
    partner_name   text NOT NULL CHECK (char_length(partner_name) >= 3),
    domain         text NOT NULL CHECK (char_length(domain) >= 3),
    is_active      boolean NOT NULL DEFAULT true,
    permissions    text[] NOT NULL DEFAULT ARRAY['widget_auth'],
    requests_count bigint NOT NULL DEFAULT 0,
    last_used_at   timestamptz,
    created_at     timestamptz NOT NULL DEFAULT now(),
    created_by     text,
    notes          text,
    webhook_url    text,          -- outbound partner notifications (optional)
    webhook_secret text
);
CREATE INDEX api_keys_active_domain_idx ON api_keys (domain) WHERE is_active;

CREATE TABLE users (
    id                 bigserial PRIMARY KEY,
    nombre             text NOT NULL,
    email              text UNIQUE CHECK (email = lower(btrim(email))),
    phone_number       text UNIQUE CHECK (phone_number ~ '^\+[1-9][0-9]{6,14}$'),
    origen             text NOT NULL DEFAULT 'Otro'
                       CHECK (origen IN ('CasaLista', 'VentaDirecta', 'Broker', 'Otro', 'invitación')),
    invited_by         bigint REFERENCES users (id) ON DELETE SET NULL,
    partner_id         bigint REFERENCES api_keys (id) ON DELETE SET NULL,
    vigencia           smallint NOT NULL DEFAULT 1 CHECK (vigencia IN (1, 5, 10)),
    fecha_validacion   timestamptz,
    id_validado        text NOT NULL UNIQUE CHECK (id_validado ~ '^PS-[0-9]{4}-[0-9]{4}-[0-9]{2}$'),
    qr_url             text,
    wallet_ready       boolean NOT NULL DEFAULT true,
    is_phone_verified  boolean NOT NULL DEFAULT false,
    is_email_verified  boolean NOT NULL DEFAULT false,
    incode_id          text,
    incode_session_id  text,
    casalista_id       text UNIQUE,
    biometric_verified boolean NOT NULL DEFAULT false,
    verification_level smallint NOT NULL DEFAULT 0 CHECK (verification_level BETWEEN 0 AND 3),
    verification_score numeric(5, 2),
    didit_session_id   text,
    username           text UNIQUE,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX users_invited_by_idx ON users (invited_by);
CREATE INDEX users_partner_id_idx ON users (partner_id);
CREATE INDEX users_created_at_idx ON users (created_at DESC);

-- Privacy-notice consent given at registration (DECISIONS.md 'Privacy').
CREATE TABLE consents (
    id             bigserial PRIMARY KEY,
    user_id        bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    notice_version text NOT NULL,
    accepted_at    timestamptz NOT NULL DEFAULT now(),
    ip_address     text,
    user_agent     text
);
CREATE INDEX consents_user_id_idx ON consents (user_id);

-- One-time codes sent by WhatsApp/SMS (verification_codes) or by e-mail (email_verification_codes).
CREATE TABLE verification_codes (
    id          bigserial PRIMARY KEY,
    user_id     bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash   text NOT NULL,
    destination text NOT NULL,
    purpose     text NOT NULL CHECK (purpose IN ('register', 'login', 'widget', 'invitation')),
    attempts    smallint NOT NULL DEFAULT 0,
    expires_at  timestamptz NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    is_used     boolean NOT NULL DEFAULT false,
    sent_at     timestamptz
);
CREATE INDEX verification_codes_user_idx ON verification_codes (user_id, created_at DESC);

CREATE TABLE email_verification_codes (
    id          bigserial PRIMARY KEY,
    user_id     bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash   text NOT NULL,
    destination text NOT NULL,
    purpose     text NOT NULL CHECK (purpose IN ('register', 'login', 'widget', 'invitation')),
    attempts    smallint NOT NULL DEFAULT 0,
    expires_at  timestamptz NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    is_used     boolean NOT NULL DEFAULT false,
    sent_at     timestamptz
);
CREATE INDEX email_verification_codes_user_idx ON email_verification_codes (user_id, created_at DESC);

-- E-mail verification links (level 2); token stored as SHA-256 hex.
CREATE TABLE email_verification_tokens (
    id             bigserial PRIMARY KEY,
    user_id        bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash     text NOT NULL UNIQUE,
    expires_at     timestamptz NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    is_used        boolean NOT NULL DEFAULT false,
    auto_biometric boolean NOT NULL DEFAULT true
);
CREATE INDEX email_verification_tokens_user_idx ON email_verification_tokens (user_id);

-- Public verification lookups. Rows outlive the user (ON DELETE SET NULL) but keep no personal data.
CREATE TABLE verification_logs (
    id              bigserial PRIMARY KEY,
    user_id         bigint REFERENCES users (id) ON DELETE SET NULL,
    id_validado     text,
    scanned_at      timestamptz NOT NULL DEFAULT now(),
    ip_address      text,
    user_agent      text,
    location        text,
    access_type     text NOT NULL DEFAULT 'public_page',
    granted         boolean NOT NULL,
    reason          text,
    additional_data jsonb,
    request_id      text UNIQUE  -- makes the logging job idempotent
);
CREATE INDEX verification_logs_user_idx ON verification_logs (user_id, scanned_at DESC);
CREATE INDEX verification_logs_id_validado_idx ON verification_logs (id_validado);

CREATE TABLE identity_codes (
    id           bigserial PRIMARY KEY,
    user_id      bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code         varchar(10) NOT NULL UNIQUE CHECK (char_length(code) BETWEEN 4 AND 10),
    created_at   timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL,
    is_used      boolean NOT NULL DEFAULT false,
    requested_by text,
    used_at      timestamptz
);
CREATE INDEX identity_codes_user_idx ON identity_codes (user_id);

-- Registration session tokens (SPEC: 64 chars). The browser holds the token; we keep its SHA-256 hex.
CREATE TABLE session_tokens (
    id         bigserial PRIMARY KEY,
    token_hash char(64) NOT NULL UNIQUE,
    user_id    bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at timestamptz NOT NULL,
    is_used    boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX session_tokens_user_idx ON session_tokens (user_id);

-- Server-side sign-in sessions (HttpOnly cookie holds the token; we keep its SHA-256 hex).
CREATE TABLE user_sessions (
    id           bigserial PRIMARY KEY,
    token_hash   char(64) NOT NULL UNIQUE,
    user_id      bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL,
    revoked_at   timestamptz,
    ip_address   text,
    user_agent   text
);
CREATE INDEX user_sessions_user_idx ON user_sessions (user_id);

CREATE TABLE admin_sessions (
    id         bigserial PRIMARY KEY,
    token_hash char(64) NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    revoked_at timestamptz,
    ip_address text
);

CREATE TABLE invitations (
    id               bigserial PRIMARY KEY,
    inviter_id       bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    invitee_email    text NOT NULL,
    invitee_phone    text,
    invitee_name     text NOT NULL,
    invitation_code  varchar(32) NOT NULL UNIQUE,
    unique_token     text NOT NULL UNIQUE,
    type             text NOT NULL CHECK (type IN ('client', 'broker')),
    status           text NOT NULL DEFAULT 'pending'
                     CHECK (status IN ('pending', 'accepted', 'expired', 'cancelled')),
    personal_message text,
    company_name     text,
    expires_at       timestamptz NOT NULL,
    accepted_at      timestamptz,
    accepted_user_id bigint REFERENCES users (id) ON DELETE SET NULL,
    token_used_at    timestamptz,
    created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX invitations_inviter_idx ON invitations (inviter_id, created_at DESC);
CREATE INDEX invitations_pending_expiry_idx ON invitations (expires_at) WHERE status = 'pending';

CREATE TABLE verification_sessions (
    id                  bigserial PRIMARY KEY,
    user_id             bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    provider            text NOT NULL DEFAULT 'didit',
    session_id          text UNIQUE,          -- provider session code
    interview_code      text,
    verification_url    text,
    verification_status text NOT NULL DEFAULT 'pending',
    overall_score       numeric(5, 2),
    face_match_score    numeric(5, 2),
    document_score      numeric(5, 2),
    liveness_score      numeric(5, 2),
    flow_type           text,
    client_id           text,
    environment         text,
    country_code        text NOT NULL DEFAULT 'MX',
    capture_timeout     integer,
    capture_retries     integer,
    existing_session    boolean NOT NULL DEFAULT false,
    optin_enabled       boolean NOT NULL DEFAULT false,
    raw_response        jsonb,
    webhook_data        jsonb,
    start_error         text,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    completed_at        timestamptz,
    expires_at          timestamptz
);
CREATE INDEX verification_sessions_user_idx ON verification_sessions (user_id, created_at DESC);
CREATE INDEX verification_sessions_open_idx ON verification_sessions (updated_at)
    WHERE verification_status IN ('pending', 'Not Started', 'In Progress');

-- Raw provider webhooks, stored before anything else so nothing is lost.
CREATE TABLE provider_webhooks (
    id           bigserial PRIMARY KEY,
    provider     text NOT NULL,
    body_sha256  char(64) NOT NULL,
    session_id   text,
    body         bytea NOT NULL,
    received_at  timestamptz NOT NULL DEFAULT now(),
    processed_at timestamptz,
    attempts     integer NOT NULL DEFAULT 0,
    last_error   text,
    UNIQUE (provider, body_sha256)
);
CREATE INDEX provider_webhooks_unprocessed_idx ON provider_webhooks (received_at) WHERE processed_at IS NULL;

-- Built wallet passes, served from storage.
CREATE TABLE wallet_passes (
    id         bigserial PRIMARY KEY,
    user_id    bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind       text NOT NULL CHECK (kind IN ('apple', 'google')),
    data_hash  char(64) NOT NULL,      -- hash of the PassData it was built from
    content    bytea,                  -- .pkpass archive (apple)
    save_url   text,                   -- save link (google)
    built_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (user_id, kind)
);

-- Outbound partner webhook deliveries.
CREATE TABLE partner_deliveries (
    id           bigserial PRIMARY KEY,
    partner_id   bigint NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    user_id      bigint REFERENCES users (id) ON DELETE SET NULL,
    event        text NOT NULL,
    payload      jsonb NOT NULL,
    status_code  integer,
    attempts     integer NOT NULL DEFAULT 0,
    delivered_at timestamptz,
    last_error   text,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX partner_deliveries_partner_idx ON partner_deliveries (partner_id, created_at DESC);

-- Runs of the system:heartbeat job (proves scheduler → Redis → worker → Postgres).
CREATE TABLE job_heartbeats (
    id      bigserial PRIMARY KEY,
    tick    text NOT NULL UNIQUE,   -- the scheduler tick (or API request) that caused it
    source  text NOT NULL,
    ran_at  timestamptz NOT NULL DEFAULT now()
);

-- Development inbox: every message the development providers "sent" (never used in production).
CREATE TABLE dev_messages (
    id         bigserial PRIMARY KEY,
    channel    text NOT NULL CHECK (channel IN ('whatsapp', 'sms', 'email')),
    recipient  text NOT NULL,
    subject    text,
    body_text  text NOT NULL,
    body_html  text,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dev_messages_created_idx ON dev_messages (created_at DESC);

-- +goose Down
-- Forward-only: migrations are never rolled back in production.
SELECT 1;
