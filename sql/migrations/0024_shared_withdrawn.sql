-- +goose Up
-- Issue 54, items 1 and 2 (DECISIONS.md, "Origin never acts as a partner"): after a person
-- withdraws a partner's access or deletes their account, that partner sees the session's status
-- and nothing it had been shared. The shared claims and the proof of those completed sessions are
-- blanked, not hidden: shared_reason says why they are gone ('withdrawn' in Mi Perfil ›
-- Plataformas con acceso, 'deleted' with the account, in the deletion's transaction).
ALTER TABLE partner_sessions
    ADD COLUMN shared_reason text CHECK (shared_reason IN ('withdrawn', 'deleted')),
    -- Was: completed exactly when shared is set. Now a completed session holds either what was
    -- shared or the reason it is gone; any other status holds neither.
    DROP CONSTRAINT partner_sessions_check,
    ADD CONSTRAINT partner_sessions_shared_check CHECK (CASE WHEN status = 'completed'
        THEN (shared IS NULL) = (shared_reason IS NOT NULL)
        ELSE shared IS NULL AND shared_reason IS NULL END),
    ADD CONSTRAINT partner_sessions_proof_check CHECK (proof IS NULL OR shared IS NOT NULL);

-- A person's sessions are found by person on withdrawal and deletion (and the foreign key's
-- ON DELETE SET NULL no longer scans the table).
CREATE INDEX partner_sessions_user_idx ON partner_sessions (user_id, partner_id, livemode) WHERE user_id IS NOT NULL;

-- +goose Down
DROP INDEX partner_sessions_user_idx;
-- Blanked sessions cannot get their data back: the old rule is put back unvalidated.
ALTER TABLE partner_sessions
    DROP CONSTRAINT partner_sessions_proof_check,
    DROP CONSTRAINT partner_sessions_shared_check,
    DROP COLUMN shared_reason,
    ADD CONSTRAINT partner_sessions_check CHECK ((status = 'completed') = (shared IS NOT NULL)) NOT VALID;
