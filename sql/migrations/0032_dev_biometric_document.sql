-- +goose Up
-- Issue 52: the development biometric stand-in plays the identity document too. The document
-- shown (and possibly edited) on its page is kept with the decision, so the webhook and a later
-- GetDecision (the reconciler) both answer it in Didit's v3 shape. Development only.
ALTER TABLE dev_biometric_sessions ADD COLUMN document_data jsonb;

-- +goose Down
ALTER TABLE dev_biometric_sessions DROP COLUMN document_data;
