-- +goose Up
-- Issue 53 (LFPIORPI) item 3: the lists people are screened against (package screening). A list
-- is the UN Security Council Consolidated List (public: no owner) or a list a business uploads
-- (the UIF's Lista de Personas Bloqueadas, owned by the partner's key). Every import is kept as a
-- version with its date, source and checksum, so that a screening result can always name the
-- list, version and date it was made against; an import identical to the latest version (same
-- SHA-256) makes no new version. Versions and entries are never deleted: AML files that cite them
-- are kept 10 years.
CREATE TABLE screening_lists (
    id         bigserial PRIMARY KEY,
    owner_id   bigint REFERENCES api_keys (id), -- the uploading partner; NULL: a public list (the UN's)
    name       text NOT NULL CHECK (char_length(btrim(name)) BETWEEN 1 AND 200),
    kind       text NOT NULL CHECK (kind IN ('un', 'uif_upload')),
    test_mode  boolean NOT NULL DEFAULT false, -- a list of test mode (the fixture; a test key's upload)
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX screening_lists_identity ON screening_lists (coalesce(owner_id, 0), kind, name, test_mode);

CREATE TABLE screening_list_versions (
    id          bigserial PRIMARY KEY,
    list_id     bigint NOT NULL REFERENCES screening_lists (id),
    version     integer NOT NULL CHECK (version > 0),
    imported_at timestamptz NOT NULL DEFAULT now(),
    source      text NOT NULL,                      -- the file name or URL it was read from
    sha256      char(64) NOT NULL,                  -- of the file's bytes
    entry_count integer NOT NULL CHECK (entry_count > 0),
    UNIQUE (list_id, version)
);

-- One listed person or organisation of a version. entry is screening.Entry as JSON, without the
-- RFC or CURP of an uploaded row: those identify a person outside our system, so they are sealed
-- (DOCUMENT_DATA_KEY) with their keyed hashes beside them for lookups.
CREATE TABLE screening_entries (
    version_id         bigint NOT NULL REFERENCES screening_list_versions (id),
    position           integer NOT NULL,            -- order in the file
    entry_id           text NOT NULL,               -- the list's identifier (UN DATAID, an upload's folio or row)
    kind               text NOT NULL CHECK (kind IN ('person', 'entity')),
    name               text NOT NULL,
    entry              jsonb NOT NULL,
    identifiers_sealed text,
    identifier_hashes  text[],
    PRIMARY KEY (version_id, position)
);
CREATE INDEX screening_entries_identifier_hashes_idx ON screening_entries USING gin (identifier_hashes)
    WHERE identifier_hashes IS NOT NULL;

-- +goose Down
DROP TABLE screening_entries;
DROP TABLE screening_list_versions;
DROP TABLE screening_lists;
