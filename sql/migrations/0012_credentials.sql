-- +goose Up
-- Verifiable credentials (SD-JWT VC) that a person holds and a verifier checks offline, and the
-- Token Status List that says, one bit per credential, which are no longer valid.
CREATE TABLE credentials (
    id          bigserial PRIMARY KEY,
    user_id     bigint REFERENCES users (id) ON DELETE SET NULL, -- NULL once the account is deleted
    list_id     integer NOT NULL DEFAULT 1,
    status_idx  integer NOT NULL CHECK (status_idx >= 0),
    holder_jwk  jsonb,       -- the holder's public key (cnf), when their wallet supplied one
    kid         text,        -- the issuer key that signed it
    sdjwt       text,        -- the issued credential (NULL until the job signed it; erased with the account)
    issued_at   timestamptz,
    expires_at  timestamptz NOT NULL,
    revoked_at  timestamptz, -- its status bit is set
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (list_id, status_idx)
);
CREATE INDEX credentials_user_idx ON credentials (user_id, created_at DESC);
CREATE INDEX credentials_revoked_idx ON credentials (list_id) WHERE revoked_at IS NOT NULL;

-- Every key that signed a credential stays published until the last credential it signed expires,
-- whatever the configuration says now (key rotation).
CREATE TABLE credential_keys (
    kid        text PRIMARY KEY,
    jwk        jsonb NOT NULL,
    last_exp   timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- The signed status list tokens, rebuilt by a job.
CREATE TABLE credential_status_lists (
    list_id  integer PRIMARY KEY,
    token    text NOT NULL,
    built_at timestamptz NOT NULL DEFAULT now()
);

-- A revoked, expired or deleted profile's credentials are revoked in the same transaction.
-- +goose StatementBegin
CREATE FUNCTION revoke_profile_credentials() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        UPDATE credentials SET revoked_at = COALESCE(revoked_at, now()), sdjwt = NULL, holder_jwk = NULL
        WHERE user_id = OLD.id;
        RETURN OLD;
    END IF;
    UPDATE credentials SET revoked_at = now() WHERE user_id = NEW.id AND revoked_at IS NULL;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER users_credentials_revoked AFTER UPDATE OF revoked_at, expired_at ON users
    FOR EACH ROW WHEN ((NEW.revoked_at IS NOT NULL AND OLD.revoked_at IS NULL) OR (NEW.expired_at IS NOT NULL AND OLD.expired_at IS NULL))
    EXECUTE FUNCTION revoke_profile_credentials();
CREATE TRIGGER users_credentials_deleted BEFORE DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION revoke_profile_credentials();

-- +goose Down
DROP TRIGGER users_credentials_deleted ON users;
DROP TRIGGER users_credentials_revoked ON users;
DROP FUNCTION revoke_profile_credentials();
DROP TABLE credential_status_lists;
DROP TABLE credential_keys;
DROP TABLE credentials;
