-- +goose Up
-- Levels 2 and 3. The development biometric simulator keeps its sessions and the decisions
-- pressed on its page here, so the API (page) and the worker (GetDecision) share them.
-- Never used in production (the real provider is configured there).
CREATE TABLE dev_biometric_sessions (
    session_id   text PRIMARY KEY,
    vendor_data  text NOT NULL,
    callback_url text,
    status       text NOT NULL DEFAULT 'Not Started',
    face_match   numeric(5, 2),
    liveness     numeric(5, 2),
    document     text,            -- document check verdict: Approved, Declined, In Review
    created_at   timestamptz NOT NULL DEFAULT now(),
    decided_at   timestamptz
);

-- The reconciler looks for unprocessed webhooks and sessions stuck in a non-final state.
CREATE INDEX verification_sessions_session_open_idx ON verification_sessions (updated_at)
    WHERE session_id IS NOT NULL AND verification_status IN ('pending', 'Not Started', 'In Progress', 'In Review', 'Resubmitted');

-- +goose Down
SELECT 1;
