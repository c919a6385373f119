-- +goose Up
-- Issue 54 item 12, "Origins are claimed, not proven": a partner proves it controls its origin
-- before live mode accepts it, with a DNS TXT record or a file at
-- /.well-known/perfilseguro-verification.txt holding origin_token (shown in its console). The
-- worker checks; origin_proven is the origin the last successful check proved (a new origin is
-- unproven until checked again), origin_checked_at and origin_check_error the last check's time
-- and, when it failed, why (in Spanish, as the console shows it).
ALTER TABLE api_keys
    ADD COLUMN origin_token text NOT NULL DEFAULT replace(gen_random_uuid()::text, '-', ''),
    ADD COLUMN origin_proven text,
    ADD COLUMN origin_proven_at timestamptz,
    ADD COLUMN origin_checked_at timestamptz,
    ADD COLUMN origin_check_error text;

-- +goose Down
SELECT 1;
