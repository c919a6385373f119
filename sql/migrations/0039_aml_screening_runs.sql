-- +goose Up
-- Issue 53 item 3: screening the people of operations (amlscreen, worker/aml_screening.go).
--
-- screened_at: when the person of an operation (and the beneficiary they declared) was first
-- screened. The scheduler's sweep queues the screening of people still without it (the
-- operation was recorded while Redis was down); a person screened against no list at all (none
-- loaded yet) is still marked, so the sweep does not queue them forever.
ALTER TABLE aml_operation_people ADD COLUMN screened_at timestamptz;
CREATE INDEX aml_operation_people_unscreened_idx ON aml_operation_people (created_at)
    WHERE screened_at IS NULL AND screened_name IS NOT NULL;

-- One re-screening run (jobs.TypeAMLRescreen) per reason (e.g. a list's new version): how far it
-- got (the last aml_operation_people.id done), so a retried run resumes instead of starting over.
CREATE TABLE aml_rescreens (
    reason        text PRIMARY KEY,
    after_person  bigint NOT NULL DEFAULT 0,
    people        integer NOT NULL DEFAULT 0, -- people (with their beneficiaries) screened so far
    new_hits      integer NOT NULL DEFAULT 0,
    started_at    timestamptz NOT NULL DEFAULT now(),
    finished_at   timestamptz
);

-- The rescreen reads files still within their retention.
CREATE INDEX aml_operations_retention_idx ON aml_operations (retention_until);

-- +goose Down
DROP INDEX aml_operations_retention_idx;
DROP TABLE aml_rescreens;
DROP INDEX aml_operation_people_unscreened_idx;
ALTER TABLE aml_operation_people DROP COLUMN screened_at;
