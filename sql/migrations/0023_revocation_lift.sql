-- +goose Up
-- Issue 38, "Revocation must mean revoked" (DECISIONS.md, Revocation): a revocation stands until
-- an administrador lifts it, with a reason, audited and told to the person. The lift is a step of
-- the lifecycle ('lifted', who, when and why); it does not bring the revoked validation back: the
-- person may start a new biometric check. notified_at is when the person was told by e-mail
-- (the lift's job marks it, so a retry never sends twice).
ALTER TABLE profile_events
    DROP CONSTRAINT profile_events_kind_check,
    ADD CONSTRAINT profile_events_kind_check CHECK (kind IN ('expired', 'revoked', 'renewed', 'lifted')),
    ADD COLUMN notified_at timestamptz;

-- +goose Down
SELECT 1;
