-- +goose Up
-- Outbound partner notifications: when a user who came through a partner changes level,
-- a delivery row is written in the same transaction (an outbox), and the partner:notify job sends it.
ALTER TABLE partner_deliveries ADD COLUMN next_attempt_at timestamptz NOT NULL DEFAULT now();
CREATE INDEX partner_deliveries_pending_idx ON partner_deliveries (next_attempt_at) WHERE delivered_at IS NULL;

-- +goose StatementBegin
CREATE FUNCTION partner_level_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO partner_deliveries (partner_id, user_id, event, payload)
    SELECT k.id, NEW.id, 'user.verification_level_changed',
           jsonb_build_object('event', 'user.verification_level_changed', 'userId', NEW.id,
                              'profileId', NEW.id_validado, 'verificationLevel', NEW.verification_level,
                              'biometricVerified', NEW.biometric_verified, 'changedAt', now())
    FROM api_keys k
    WHERE k.id = NEW.partner_id AND k.is_active AND k.webhook_url IS NOT NULL;
    RETURN NEW;
END $$;
-- +goose StatementEnd

CREATE TRIGGER users_partner_level_outbox
    AFTER UPDATE OF verification_level ON users
    FOR EACH ROW
    WHEN (NEW.partner_id IS NOT NULL AND NEW.verification_level IS DISTINCT FROM OLD.verification_level)
    EXECUTE FUNCTION partner_level_outbox();

-- +goose Down
SELECT 1;
