-- +goose Up
-- Issue 53 item 1 (LFPIORPI): the operations a real-estate business records (partner API
-- /api/partner/v1/operations and the console's Operaciones), each with the people in it, linked to
-- a verification session they completed with that business. What an operation requires
-- (identification, aviso) is not stored: it is computed from uma_values and aml_thresholds
-- (0035) by aml.Requirement whenever the operation is read, so a corrected table corrects it.
-- Also the partner role 'cumplimiento' (compliance officer).

ALTER TABLE partner_users DROP CONSTRAINT partner_users_role_check;
ALTER TABLE partner_users ADD CONSTRAINT partner_users_role_check
    CHECK (role IN ('propietario', 'desarrollador', 'lectura', 'cumplimiento'));

-- One operation. test_mode: recorded with a test key (or the console in test mode); a test key
-- never sees live operations and the other way round. amount_centavos is the operation's amount,
-- or the monthly rent when monthly. created_by_user / created_by_key: who recorded it (the
-- console's partner user, or the secret key). retention_until: the LFPIORPI keeps the file 10
-- years from the operation (the reform published in the DOF on 16/07/2025 raised it from 5).
CREATE TABLE aml_operations (
    id                 text PRIMARY KEY, -- op_ + 24 hex
    partner_id         bigint NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    test_mode          boolean NOT NULL,
    kind               text NOT NULL CHECK (kind IN ('compraventa', 'intermediacion', 'desarrollo', 'arrendamiento')),
    amount_centavos    bigint NOT NULL CHECK (amount_centavos > 0),
    monthly            boolean NOT NULL DEFAULT false,
    operation_date     date NOT NULL,
    property_reference text NOT NULL CHECK (length(btrim(property_reference)) BETWEEN 1 AND 200),
    business_role      text NOT NULL
        CHECK (business_role IN ('vendedor', 'comprador', 'intermediario', 'desarrollador', 'arrendador', 'arrendatario')),
    created_by_user    bigint REFERENCES partner_users (id) ON DELETE SET NULL,
    created_by_key     bigint REFERENCES partner_keys (id) ON DELETE SET NULL,
    created_by_label   text NOT NULL, -- who recorded it, as it read then (an e-mail, or the key's hint)
    created_at         timestamptz NOT NULL DEFAULT now(),
    retention_until    date NOT NULL,
    CHECK (monthly = (kind = 'arrendamiento')),
    CHECK (retention_until = (operation_date + interval '10 years')::date)
);
CREATE INDEX aml_operations_partner_idx ON aml_operations (partner_id, test_mode, created_at DESC, id DESC);

-- The people in an operation. partner_session_id: the verification session the person completed
-- with that business (checked when recorded: same partner, same mode, completed); user_id is
-- copied from it, so the file still names the person if the session is purged.
CREATE TABLE aml_operation_people (
    id                 bigserial PRIMARY KEY,
    operation_id       text NOT NULL REFERENCES aml_operations (id) ON DELETE CASCADE,
    role               text NOT NULL CHECK (role IN ('comprador', 'vendedor', 'arrendador', 'arrendatario', 'otro')),
    partner_session_id text REFERENCES partner_sessions (id) ON DELETE SET NULL,
    user_id            bigint REFERENCES users (id) ON DELETE SET NULL,
    created_at         timestamptz NOT NULL DEFAULT now(),
    UNIQUE (operation_id, partner_session_id)
);
CREATE INDEX aml_operation_people_user_idx ON aml_operation_people (user_id);

-- +goose Down
DROP TABLE aml_operation_people;
DROP TABLE aml_operations;
DELETE FROM partner_users WHERE role = 'cumplimiento';
ALTER TABLE partner_users DROP CONSTRAINT partner_users_role_check;
ALTER TABLE partner_users ADD CONSTRAINT partner_users_role_check
    CHECK (role IN ('propietario', 'desarrollador', 'lectura'));
