-- +goose Up
-- Issue 53 items 5 and 6: every time a person's LFPIORPI file (expediente) is read — downloaded
-- from the console by the business's cumplimiento or propietario, or by an administrator acting on
-- an authority's request — who, when, in what format and why. Shown in the file's audit trail.
-- Cascades with the person's row of the operation, so the daily purge after retention_until takes
-- the accesses with the file.
CREATE TABLE aml_file_accesses (
    id                  bigserial PRIMARY KEY,
    operation_person_id bigint NOT NULL REFERENCES aml_operation_people (id) ON DELETE CASCADE,
    actor_kind          text NOT NULL CHECK (actor_kind IN ('partner_user', 'admin')),
    actor_id            bigint,          -- partner_users.id or admins.id at the time
    actor_label         text NOT NULL,   -- who, as the file names them (e-mail and role)
    format              text NOT NULL CHECK (format IN ('pdf', 'json')),
    purpose             text NOT NULL CHECK (char_length(btrim(purpose)) BETWEEN 1 AND 500),
    authority           text,            -- the authority that asked (administrator's access)
    authority_reference text,            -- its request's reference (oficio number)
    accessed_at         timestamptz NOT NULL DEFAULT now(),
    CHECK ((actor_kind = 'admin') = (authority IS NOT NULL AND authority_reference IS NOT NULL))
);
CREATE INDEX aml_file_accesses_person_idx ON aml_file_accesses (operation_person_id, accessed_at);

-- The declarations a locked file cites: when the person deletes their account, the versions they
-- shared with the file's business are tied to the file here before aml_declarations.user_id
-- becomes NULL (the others are deleted), so the file still prints them.
CREATE TABLE aml_file_declarations (
    operation_person_id bigint NOT NULL REFERENCES aml_operation_people (id) ON DELETE CASCADE,
    declaration_id      bigint NOT NULL REFERENCES aml_declarations (id) ON DELETE CASCADE,
    PRIMARY KEY (operation_person_id, declaration_id)
);
CREATE INDEX aml_file_declarations_declaration_idx ON aml_file_declarations (declaration_id);

-- +goose Down
DROP TABLE aml_file_declarations;
DROP TABLE aml_file_accesses;
