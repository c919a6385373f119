-- +goose Up
-- Issue 53 items 2-6 (LFPIORPI): the shared shape of a business's anti-laundering file. Each
-- part's own columns and tables come in later migrations; these are the ones several parts read.
--
-- 1. The person as the file keeps them. When a person is added to an operation, what their
--    document says is copied into the file (the law keeps it 10 years; the account may be deleted
--    tomorrow): the name screened (the document's, else the profile's typed name, name_source
--    says which), the birth date and nationality in clear for screening, and the whole identity
--    (document, CURP, number, how it was checked) sealed with DOCUMENT_DATA_KEY.
--    person_deleted_at: the person deleted their account; the file is locked (item 6).
ALTER TABLE aml_operation_people
    ADD COLUMN screened_name     text,
    ADD COLUMN name_source       text CHECK (name_source IN ('typed', 'document')),
    ADD COLUMN birth_date        date,
    ADD COLUMN nationality       text,
    ADD COLUMN identity_sealed   text,
    ADD COLUMN person_deleted_at timestamptz;

-- 2. The know-your-client declaration (item 2): each signed version, never changed once signed.
--    A correction is a new version. user_id is NULL once the account is deleted (then only
--    declarations a file cites are kept). answers_sealed: expediente.Answers as JSON, sealed;
--    text_sealed: the exact text the person signed, sealed; text_sha256: its hash (hex).
--    evidence: how it was signed (passkey credential id or the code's channel and masked
--    destination, the request's user agent and a keyed hash of its address).
CREATE TABLE aml_declarations (
    id             bigserial PRIMARY KEY,
    user_id        bigint REFERENCES users (id) ON DELETE SET NULL,
    test_mode      boolean NOT NULL,
    version        integer NOT NULL CHECK (version > 0),
    answers_sealed text NOT NULL,
    text_sealed    text NOT NULL,
    text_sha256    char(64) NOT NULL,
    method         text NOT NULL CHECK (method IN ('passkey', 'codigo')),
    evidence       jsonb NOT NULL,
    signed_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (user_id, test_mode, version)
);

-- Which businesses received which version: in a hosted session with amlProfile, or by a
-- correction made later (notified_at: when the business was told of it).
CREATE TABLE aml_declaration_shares (
    declaration_id     bigint NOT NULL REFERENCES aml_declarations (id) ON DELETE CASCADE,
    partner_id         bigint NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    partner_session_id text REFERENCES partner_sessions (id) ON DELETE SET NULL,
    shared_at          timestamptz NOT NULL DEFAULT now(),
    notified_at        timestamptz,
    PRIMARY KEY (declaration_id, partner_id)
);
CREATE INDEX aml_declaration_shares_partner_idx ON aml_declaration_shares (partner_id);

-- 3. Screening (item 3): each screening of a person (or the beneficiary they declared) against
--    one list version, or the provider's own AML screening (list_id NULL, source 'proveedor').
CREATE TABLE aml_screenings (
    id                  bigserial PRIMARY KEY,
    operation_person_id bigint NOT NULL REFERENCES aml_operation_people (id) ON DELETE CASCADE,
    subject             text NOT NULL CHECK (subject IN ('persona', 'beneficiario')),
    screened_name       text NOT NULL,
    screened_birth      date,
    source              text NOT NULL CHECK (source IN ('lista', 'proveedor')),
    list_id             bigint REFERENCES screening_lists (id),
    version_id          bigint REFERENCES screening_list_versions (id),
    checked_at          timestamptz NOT NULL DEFAULT now(),
    candidate_count     integer NOT NULL CHECK (candidate_count >= 0),
    CHECK ((source = 'lista') = (version_id IS NOT NULL))
);
CREATE INDEX aml_screenings_person_idx ON aml_screenings (operation_person_id, checked_at DESC);

-- A possible hit and the compliance officer's ruling. blocking: a confirmed hit stops the
-- operation and raises the 24-hour aviso (a blocked-persons list: the UN's, a UIF upload).
CREATE TABLE aml_hits (
    id                  bigserial PRIMARY KEY,
    screening_id        bigint NOT NULL REFERENCES aml_screenings (id) ON DELETE CASCADE,
    operation_id        text NOT NULL REFERENCES aml_operations (id) ON DELETE CASCADE,
    operation_person_id bigint NOT NULL REFERENCES aml_operation_people (id) ON DELETE CASCADE,
    subject             text NOT NULL CHECK (subject IN ('persona', 'beneficiario')),
    list_id             bigint REFERENCES screening_lists (id),
    version_id          bigint REFERENCES screening_list_versions (id),
    list_name           text NOT NULL,
    entry_id            text NOT NULL,
    matched_name        text NOT NULL,
    score               numeric(5, 4) NOT NULL CHECK (score BETWEEN 0 AND 1),
    reasons             text[] NOT NULL,
    entry               jsonb NOT NULL,
    blocking            boolean NOT NULL,
    status              text NOT NULL DEFAULT 'pendiente' CHECK (status IN ('pendiente', 'descartada', 'confirmada')),
    resolution_reason   text,
    resolved_by_user    bigint REFERENCES partner_users (id) ON DELETE SET NULL,
    resolved_by_label   text,
    resolved_at         timestamptz,
    created_at          timestamptz NOT NULL DEFAULT now(),
    notified_at         timestamptz,
    CHECK ((status = 'pendiente') = (resolved_at IS NULL)),
    CHECK (status = 'pendiente' OR char_length(btrim(resolution_reason)) >= 5)
);
-- One hit per person, subject, list and entry: a re-screen against a newer version of the same
-- list does not raise an entry already ruled on.
CREATE UNIQUE INDEX aml_hits_once ON aml_hits (operation_person_id, subject, coalesce(list_id, 0), entry_id);
CREATE INDEX aml_hits_pending_idx ON aml_hits (operation_id) WHERE status = 'pendiente';

-- A confirmed blocking hit stops the operation.
ALTER TABLE aml_operations
    ADD COLUMN stopped_at     timestamptz,
    ADD COLUMN stopped_reason text;

-- 4. Avisos (item 4): threshold avisos (umbral: by the 17th of the month after the operation),
--    suspicious-operation avisos (sospechosa: 24 hours from a confirmed hit) and the monthly
--    no-operations report (sin_operaciones: a month without operations). Filed with the SAT's
--    acknowledgement number.
CREATE TABLE aml_avisos (
    id              bigserial PRIMARY KEY,
    partner_id      bigint NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    test_mode       boolean NOT NULL,
    kind            text NOT NULL CHECK (kind IN ('umbral', 'sospechosa', 'sin_operaciones')),
    operation_id    text REFERENCES aml_operations (id) ON DELETE CASCADE,
    hit_id          bigint REFERENCES aml_hits (id) ON DELETE CASCADE,
    period          date, -- the month reported (its first day): umbral and sin_operaciones
    due_at          timestamptz NOT NULL,
    filed_at        timestamptz,
    acknowledgement text,
    filed_by_label  text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    CHECK ((filed_at IS NULL) = (acknowledgement IS NULL)),
    CHECK ((kind = 'sin_operaciones') = (operation_id IS NULL)),
    CHECK ((kind = 'sospechosa') = (hit_id IS NOT NULL)),
    CHECK (kind = 'sospechosa' OR period IS NOT NULL)
);
CREATE UNIQUE INDEX aml_avisos_umbral ON aml_avisos (operation_id) WHERE kind = 'umbral';
CREATE UNIQUE INDEX aml_avisos_sospechosa ON aml_avisos (hit_id) WHERE kind = 'sospechosa';
CREATE UNIQUE INDEX aml_avisos_sin_operaciones ON aml_avisos (partner_id, test_mode, period) WHERE kind = 'sin_operaciones';
CREATE INDEX aml_avisos_partner_idx ON aml_avisos (partner_id, test_mode, due_at);

-- +goose Down
DROP TABLE aml_avisos;
ALTER TABLE aml_operations DROP COLUMN stopped_at, DROP COLUMN stopped_reason;
DROP TABLE aml_hits;
DROP TABLE aml_screenings;
DROP TABLE aml_declaration_shares;
DROP TABLE aml_declarations;
ALTER TABLE aml_operation_people DROP COLUMN screened_name, DROP COLUMN name_source, DROP COLUMN birth_date,
    DROP COLUMN nationality, DROP COLUMN identity_sealed, DROP COLUMN person_deleted_at;
