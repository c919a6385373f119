-- +goose Up
-- Issue 52: the identity document's data, kept with the biometric check that read it
-- (CONVENTIONS 15). What identifies the person outside our system (the CURP, the document's
-- number, the address) is sealed with DOCUMENT_DATA_KEY (AES-256-GCM, secure.DocumentKey); the
-- CURP and the number also keep a keyed hash (HMAC-SHA256, secure.LookupHash) for "one ID, one
-- profile". The fields a decision needs and that say nothing alone (type, country, names, dates,
-- sex, nationality) stay in clear. Nothing of the document's images is kept.
ALTER TABLE verification_sessions
    ADD COLUMN doc_type             text,
    ADD COLUMN doc_issuing_country  text,        -- ISO 3166-1 alpha-3
    ADD COLUMN doc_issuing_state    text,
    ADD COLUMN doc_given_names      text,
    ADD COLUMN doc_first_surname    text,
    ADD COLUMN doc_second_surname   text,
    ADD COLUMN doc_full_name        text,
    ADD COLUMN doc_birth_date       date,
    ADD COLUMN doc_sex              text,
    ADD COLUMN doc_nationality      text,
    ADD COLUMN doc_issue_date       date,
    ADD COLUMN doc_expiry_date      date,
    ADD COLUMN doc_number_sealed    text,
    ADD COLUMN doc_number_hash      char(64),    -- LookupHash(document_number, issuing country ":" number)
    ADD COLUMN doc_curp_sealed      text,
    ADD COLUMN doc_curp_hash        char(64),    -- LookupHash(curp, CURP)
    ADD COLUMN doc_address_sealed   text,
    ADD COLUMN document_read_at     timestamptz, -- when the document's data was stored
    -- The provider's raw answers keep only what is not personal in clear (raw_response,
    -- webhook_data); the personal fields removed from them are sealed here (docdata.Seal).
    ADD COLUMN raw_response_sealed  text,
    ADD COLUMN webhook_data_sealed  text,
    -- Set once both raw copies hold no personal field in clear: the redaction job's mark.
    ADD COLUMN raw_redacted_at      timestamptz;
CREATE INDEX verification_sessions_doc_curp_idx ON verification_sessions (doc_curp_hash) WHERE doc_curp_hash IS NOT NULL;
CREATE INDEX verification_sessions_doc_number_idx ON verification_sessions (doc_number_hash) WHERE doc_number_hash IS NOT NULL;

-- Stored webhook bodies likewise: body keeps the non-personal part, body_sealed the rest.
ALTER TABLE provider_webhooks
    ADD COLUMN body_sealed     text,
    ADD COLUMN raw_redacted_at timestamptz;

-- +goose Down
ALTER TABLE provider_webhooks DROP COLUMN raw_redacted_at, DROP COLUMN body_sealed;
DROP INDEX verification_sessions_doc_number_idx;
DROP INDEX verification_sessions_doc_curp_idx;
ALTER TABLE verification_sessions
    DROP COLUMN raw_redacted_at, DROP COLUMN webhook_data_sealed, DROP COLUMN raw_response_sealed,
    DROP COLUMN document_read_at, DROP COLUMN doc_address_sealed, DROP COLUMN doc_curp_hash,
    DROP COLUMN doc_curp_sealed, DROP COLUMN doc_number_hash, DROP COLUMN doc_number_sealed,
    DROP COLUMN doc_expiry_date, DROP COLUMN doc_issue_date, DROP COLUMN doc_nationality, DROP COLUMN doc_sex,
    DROP COLUMN doc_birth_date, DROP COLUMN doc_full_name, DROP COLUMN doc_second_surname,
    DROP COLUMN doc_first_surname, DROP COLUMN doc_given_names, DROP COLUMN doc_issuing_state,
    DROP COLUMN doc_issuing_country, DROP COLUMN doc_type;
