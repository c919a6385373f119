-- +goose Up
-- Operators are named accounts with a role, signed in with a passkey; every operator action and
-- every sign-in attempt is appended to an audit trail the application cannot edit.

-- The audit trail. actor_label is what identified the actor at the time (an administrator's
-- e-mail, a person's profile ID), so a row still reads right after the actor is gone. changes
-- holds, for edits, {field: {before, after}}; never a secret or a token.
CREATE TABLE audit_events (
    id          bigserial PRIMARY KEY,
    at          timestamptz NOT NULL DEFAULT now(),
    actor_kind  text NOT NULL CHECK (actor_kind IN ('admin', 'person', 'system')),
    actor_id    bigint,
    actor_label text,
    action      text NOT NULL,
    target_kind text,
    target_id   text,
    ip          text,
    user_agent  text,
    changes     jsonb,
    outcome     text NOT NULL DEFAULT 'ok' CHECK (outcome IN ('ok', 'denied', 'failed'))
);
CREATE INDEX audit_events_at_idx ON audit_events (at DESC, id DESC);
CREATE INDEX audit_events_actor_idx ON audit_events (actor_kind, actor_id, at DESC);
CREATE INDEX audit_events_actor_label_idx ON audit_events (lower(actor_label), at DESC);
CREATE INDEX audit_events_action_idx ON audit_events (action, at DESC);
CREATE INDEX audit_events_target_idx ON audit_events (target_kind, target_id, at DESC);

-- Append-only: UPDATE and DELETE raise, unless the transaction set perfilseguro.retention = 'on'
-- (SET LOCAL), which only the retention job does to erase rows past their period. TRUNCATE is
-- refused too. The one other exception is the account deletion (perfilseguro.erasure = 'on'):
-- it may blank the before/after values (changes) of the events about the deleted person, and
-- nothing else of the row, so that their name and e-mail do not outlive the account.
-- +goose StatementBegin
CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' AND current_setting('perfilseguro.retention', true) = 'on' THEN
        RETURN OLD;
    END IF;
    IF TG_OP = 'UPDATE' AND current_setting('perfilseguro.erasure', true) = 'on'
        AND (NEW.id, NEW.at, NEW.actor_kind, NEW.actor_id, NEW.actor_label, NEW.action, NEW.target_kind,
             NEW.target_id, NEW.ip, NEW.user_agent, NEW.outcome)
            IS NOT DISTINCT FROM (OLD.id, OLD.at, OLD.actor_kind, OLD.actor_id, OLD.actor_label, OLD.action,
             OLD.target_kind, OLD.target_id, OLD.ip, OLD.user_agent, OLD.outcome) THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'audit_events is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
    FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
    FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();

-- Named administrators. A disabled one keeps their row (the audit trail names them).
CREATE TABLE admins (
    id          bigserial PRIMARY KEY,
    email       text NOT NULL UNIQUE CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
    name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
    role        text NOT NULL CHECK (role IN ('administrador', 'soporte', 'finanzas')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    disabled_at timestamptz,
    created_by  bigint REFERENCES admins (id) ON DELETE SET NULL
);

-- Single-use enrolment links (24 h) where an administrator registers a passkey. Only the hash
-- of the token is kept.
CREATE TABLE admin_enrolments (
    id         bigserial PRIMARY KEY,
    token_hash char(64) NOT NULL UNIQUE,
    admin_id   bigint NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz
);
CREATE INDEX admin_enrolments_admin_idx ON admin_enrolments (admin_id);

-- Sessions now belong to an administrator, with the idle rule (last_seen_at) and the time of the
-- last passkey assertion (asserted_at; destructive actions want it fresh). dev_password marks a
-- session opened with the development password (never in production). Sessions of the shared
-- password cannot name anyone: they end here.
UPDATE admin_sessions SET revoked_at = now() WHERE revoked_at IS NULL;
ALTER TABLE admin_sessions
    ADD COLUMN admin_id     bigint REFERENCES admins (id) ON DELETE CASCADE,
    ADD COLUMN last_seen_at timestamptz,
    ADD COLUMN asserted_at  timestamptz,
    ADD COLUMN dev_password boolean NOT NULL DEFAULT false,
    ADD COLUMN user_agent   text;
CREATE INDEX admin_sessions_admin_idx ON admin_sessions (admin_id) WHERE revoked_at IS NULL;

-- The lifecycle history names the administrator who acted (as they were called then).
ALTER TABLE profile_events
    ADD COLUMN admin_id    bigint REFERENCES admins (id) ON DELETE SET NULL,
    ADD COLUMN actor_label text;

-- An administrator's passkeys live beside the people's (0016): exactly one owner per credential.
ALTER TABLE webauthn_credentials
    ADD COLUMN admin_id bigint REFERENCES admins (id) ON DELETE CASCADE,
    ADD CONSTRAINT webauthn_credentials_one_owner CHECK ((user_id IS NULL) <> (admin_id IS NULL));
CREATE INDEX webauthn_credentials_admin_idx ON webauthn_credentials (admin_id) WHERE admin_id IS NOT NULL;
