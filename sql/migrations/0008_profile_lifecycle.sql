-- +goose Up
-- The lifecycle of a validation (DECISIONS.md): it expires fecha_validacion + vigencia years after
-- it was granted (recorded once, by the profile:expire job), a new biometric check renews it, and
-- an administrator can revoke it with a reason without deleting the account. Each step is
-- recorded in profile_events, who and when.
ALTER TABLE users
    ADD COLUMN expired_at     timestamptz,
    ADD COLUMN revoked_at     timestamptz,
    ADD COLUMN revoked_reason text CHECK (revoked_reason IS NULL OR length(revoked_reason) BETWEEN 1 AND 500),
    ADD CONSTRAINT users_revocation_complete CHECK ((revoked_at IS NULL) = (revoked_reason IS NULL));

-- The expiry job's scan: validated profiles not yet recorded as expired, oldest validation first
-- (the end date itself cannot be indexed: adding years to a timestamptz depends on the time zone).
CREATE INDEX users_unexpired_validation_idx ON users (fecha_validacion)
    WHERE fecha_validacion IS NOT NULL AND expired_at IS NULL;

CREATE TABLE profile_events (
    id         bigserial PRIMARY KEY,
    user_id    bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind       text NOT NULL CHECK (kind IN ('expired', 'revoked', 'renewed')),
    reason     text,
    actor      text NOT NULL, -- 'system' or 'admin'
    actor_ip   text,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX profile_events_user_idx ON profile_events (user_id, created_at DESC);

-- Partners with a notification webhook hear of expiry, renewal, revocation and deletion (outbox, like
-- user.verification_level_changed in 0006). The deleted event keeps only the profile ID.
-- +goose StatementBegin
CREATE FUNCTION partner_lifecycle_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    ev text;
    subject users%ROWTYPE;
BEGIN
    IF TG_OP = 'DELETE' THEN
        ev := 'profile.deleted';
        subject := OLD;
    ELSIF NEW.revoked_at IS NOT NULL AND OLD.revoked_at IS NULL THEN
        ev := 'profile.revoked';
        subject := NEW;
    ELSIF NEW.expired_at IS NOT NULL AND OLD.expired_at IS NULL THEN
        ev := 'profile.expired';
        subject := NEW;
    ELSIF NEW.fecha_validacion > OLD.fecha_validacion AND OLD.verification_level = 3 AND NEW.verification_level = 3 THEN
        ev := 'profile.renewed';
        subject := NEW;
    ELSE
        RETURN NULL;
    END IF;
    INSERT INTO partner_deliveries (partner_id, user_id, event, payload)
    SELECT k.id, CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE subject.id END, ev,
           jsonb_build_object('event', ev, 'profileId', subject.id_validado, 'changedAt', now())
           || CASE WHEN TG_OP = 'DELETE' THEN '{}'::jsonb ELSE jsonb_build_object('userId', subject.id) END
    FROM api_keys k
    WHERE k.id = subject.partner_id AND k.is_active AND k.webhook_url IS NOT NULL;
    RETURN NULL;
END $$;
-- +goose StatementEnd

CREATE TRIGGER users_partner_lifecycle_outbox
    AFTER UPDATE OF revoked_at, expired_at, fecha_validacion ON users
    FOR EACH ROW WHEN (NEW.partner_id IS NOT NULL)
    EXECUTE FUNCTION partner_lifecycle_outbox();
CREATE TRIGGER users_partner_deleted_outbox
    AFTER DELETE ON users
    FOR EACH ROW WHEN (OLD.partner_id IS NOT NULL)
    EXECUTE FUNCTION partner_lifecycle_outbox();

-- +goose Down
SELECT 1;
