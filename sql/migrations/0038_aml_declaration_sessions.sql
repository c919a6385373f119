-- +goose Up
-- Issue 53 item 2: a verification session may ask for the know-your-client declaration
-- (amlProfile). The declaration itself and its shares are in 0037 (aml_declarations,
-- aml_declaration_shares); a session reads the version shared in it through partner_session_id.
ALTER TABLE partner_sessions ADD COLUMN aml_profile boolean NOT NULL DEFAULT false;
CREATE INDEX aml_declaration_shares_session_idx ON aml_declaration_shares (partner_session_id)
    WHERE partner_session_id IS NOT NULL;

-- +goose Down
DROP INDEX aml_declaration_shares_session_idx;
ALTER TABLE partner_sessions DROP COLUMN aml_profile;
