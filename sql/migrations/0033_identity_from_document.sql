-- +goose Up
-- Issue 52: "ID Validado" certifies what the identity document says. Each approved biometric
-- check is assessed against the document it read (identity.Assess): the verdict and its findings
-- are kept on the check; a profile granted level 3 names the check whose document certifies it,
-- carries that document's name (users.nombre, name_source 'document'), its lookup key for "one
-- ID, one profile" and its expiry (the validity ends no later than the ID's).
ALTER TABLE verification_sessions
    -- match: level 3 granted with the document's name; near / no_document: waiting for an
    -- administrator's review; mismatch: the person may adopt the document's name; duplicate: the
    -- document certifies another live profile; expired_document / under_age: declined.
    ADD COLUMN identity_verdict   text CHECK (identity_verdict IN ('match', 'near', 'no_document', 'mismatch',
                                                                   'duplicate', 'expired_document', 'under_age')),
    ADD COLUMN identity_findings  jsonb,          -- identity.Assessment: reasons, scores, CURP and registry results
    ADD COLUMN name_score         numeric(5, 4),  -- the name matcher's score, 0..1
    ADD COLUMN duplicate_of       bigint REFERENCES users (id) ON DELETE SET NULL, -- the profile the document certifies
    -- How the verdict was settled after the check: 'adopted' (the person took the document's
    -- name), 'approved' / 'declined' (an administrator's review), with who and why.
    ADD COLUMN identity_resolution    text CHECK (identity_resolution IN ('adopted', 'approved', 'declined')),
    ADD COLUMN identity_resolved_at   timestamptz,
    ADD COLUMN identity_resolved_by   bigint REFERENCES users (id) ON DELETE SET NULL,  -- the person (adopted)
    ADD COLUMN identity_resolved_by_admin bigint REFERENCES admins (id) ON DELETE SET NULL, -- the reviewer
    ADD COLUMN identity_resolution_reason text;
CREATE INDEX verification_sessions_identity_review_idx ON verification_sessions (completed_at)
    WHERE identity_verdict IN ('near', 'no_document') AND identity_resolution IS NULL;

ALTER TABLE users
    ADD COLUMN identity_verification_id bigint REFERENCES verification_sessions (id) ON DELETE SET NULL,
    ADD COLUMN name_source       text NOT NULL DEFAULT 'typed' CHECK (name_source IN ('typed', 'document')),
    -- The certifying document's lookup hash: the CURP's (secure.LookupCURP), else its issuing
    -- country and number's (secure.LookupDocumentNumber). One live profile per document and mode.
    ADD COLUMN document_key      char(64),
    ADD COLUMN document_expires_on date;
CREATE UNIQUE INDEX users_document_key ON users (document_key, (coalesce(test_partner_id, 0)))
    WHERE document_key IS NOT NULL;
CREATE INDEX users_document_expires_idx ON users (document_expires_on)
    WHERE document_expires_on IS NOT NULL AND expired_at IS NULL;

-- The end of a validation: fecha_validacion plus vigencia years, or the end of the document's
-- expiry day in Mexico City when that comes first (perfilseguro.User.ValidUntil).
-- +goose StatementBegin
CREATE FUNCTION validity_end(fecha timestamptz, vigencia smallint, document_expires date) RETURNS timestamptz
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT least(fecha + make_interval(years => vigencia),
                 ((document_expires + 1)::timestamp AT TIME ZONE 'America/Mexico_City'))
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION validity_end(timestamptz, smallint, date);
DROP INDEX users_document_expires_idx;
DROP INDEX users_document_key;
ALTER TABLE users DROP COLUMN identity_verification_id, DROP COLUMN name_source, DROP COLUMN document_key,
    DROP COLUMN document_expires_on;
DROP INDEX verification_sessions_identity_review_idx;
ALTER TABLE verification_sessions DROP COLUMN identity_verdict, DROP COLUMN identity_findings,
    DROP COLUMN name_score, DROP COLUMN duplicate_of, DROP COLUMN identity_resolution,
    DROP COLUMN identity_resolved_at, DROP COLUMN identity_resolved_by, DROP COLUMN identity_resolved_by_admin,
    DROP COLUMN identity_resolution_reason;
