-- +goose Up
-- Invitation delivery is one job per channel; these mark what was already sent so a retried
-- or duplicated job never sends the same invitation twice on the same channel.
ALTER TABLE invitations
    ADD COLUMN email_sent_at    timestamptz,
    ADD COLUMN whatsapp_sent_at timestamptz;

-- +goose Down
SELECT 1;
