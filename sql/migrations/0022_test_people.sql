-- +goose Up
-- Issue 36, test mode for people: a person who registers through a partner's test session is
-- that partner's test person. Test people live beside live people with their own e-mails and
-- phones (a developer tests with their own phone without touching their real account), are
-- served by the development stand-ins even in production, never appear in live lookups, the
-- public page, the administrators' lists or billing, and are deleted 30 days after they were
-- created.
ALTER TABLE users ADD COLUMN test_partner_id bigint REFERENCES api_keys (id) ON DELETE CASCADE;

-- E-mail and phone are unique per mode: among live people (0), and among one partner's test
-- people. The index names stay: the code maps them to the same 409.
ALTER TABLE users DROP CONSTRAINT users_email_key, DROP CONSTRAINT users_phone_number_key;
CREATE UNIQUE INDEX users_email_key ON users (email, (coalesce(test_partner_id, 0)));
CREATE UNIQUE INDEX users_phone_number_key ON users (phone_number, (coalesce(test_partner_id, 0)));
CREATE INDEX users_test_people_idx ON users (created_at) WHERE test_partner_id IS NOT NULL;

-- A test person's messages land in the development inbox, tagged with the partner whose
-- console shows them.
ALTER TABLE dev_messages ADD COLUMN test_partner_id bigint REFERENCES api_keys (id) ON DELETE CASCADE;
CREATE INDEX dev_messages_test_partner_idx ON dev_messages (test_partner_id, created_at DESC)
    WHERE test_partner_id IS NOT NULL;

-- A test person's payments go through the checkout stand-in and are never billed.
ALTER TABLE payments ADD COLUMN livemode boolean NOT NULL DEFAULT true;

-- +goose Down
ALTER TABLE payments DROP COLUMN livemode;
ALTER TABLE dev_messages DROP COLUMN test_partner_id;
DELETE FROM users WHERE test_partner_id IS NOT NULL;
DROP INDEX users_email_key, users_phone_number_key;
ALTER TABLE users DROP COLUMN test_partner_id;
ALTER TABLE users ADD CONSTRAINT users_email_key UNIQUE (email), ADD CONSTRAINT users_phone_number_key UNIQUE (phone_number);
