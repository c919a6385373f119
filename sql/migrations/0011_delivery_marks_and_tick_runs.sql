-- +goose Up
-- A code's delivery is marked once the provider accepted it: a second run of its job (a worker
-- killed before acknowledging the job, a Redis failover that hands the job out again) finds the
-- mark and does not send it again, however long after the claim it comes.
ALTER TABLE verification_codes ADD COLUMN delivered_at timestamptz;
ALTER TABLE email_verification_codes ADD COLUMN delivered_at timestamptz;

-- How many times each scheduler tick ran: more than one means a tick was enqueued twice.
ALTER TABLE job_heartbeats ADD COLUMN runs integer NOT NULL DEFAULT 1;

-- +goose Down
ALTER TABLE job_heartbeats DROP COLUMN runs;
ALTER TABLE email_verification_codes DROP COLUMN delivered_at;
ALTER TABLE verification_codes DROP COLUMN delivered_at;
