-- +goose Up
-- Issue 54 (item 3, applied to deletion): profile.deleted no longer goes to the partner a person
-- first came through with their profile ID, which that partner may never have been shown. The
-- deletion itself (postgres.DeleteUser) now writes the notice, in its transaction, to each partner
-- the person was sharing with, naming them only by that partner's sessions and references (and
-- the profile ID only if it was shared with that partner), as profile.access_revoked does.
DROP TRIGGER users_partner_deleted_outbox ON users;

-- +goose Down
-- Forward-only: migrations are never rolled back in production.
SELECT 1;
