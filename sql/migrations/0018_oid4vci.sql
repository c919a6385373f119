-- +goose Up
-- OpenID4VCI 1.0, pre-authorized code flow (issue 28): a person at level 3 offers their
-- credential to a wallet (QR or link); the wallet redeems the pre-authorized code with the
-- transaction code sent by WhatsApp, gets a short access token, proves possession of its key
-- with a fresh nonce and receives the SD-JWT VC bound to that key. Only hashes are stored.

-- The transaction code is a one-time code like the others (same table, same delivery job, same
-- five tries), of its own purpose so that it never signs anyone in.
ALTER TABLE verification_codes DROP CONSTRAINT verification_codes_purpose_check,
    ADD CONSTRAINT verification_codes_purpose_check
        CHECK (purpose IN ('register', 'login', 'widget', 'invitation', 'contact_change', 'confirmation', 'credential_offer'));
ALTER TABLE email_verification_codes DROP CONSTRAINT email_verification_codes_purpose_check,
    ADD CONSTRAINT email_verification_codes_purpose_check
        CHECK (purpose IN ('register', 'login', 'widget', 'invitation', 'contact_change', 'confirmation', 'credential_offer'));

-- One offer: handle_hash is the SHA-256 of the last segment of its credential_offer_uri,
-- code_hash the SHA-256 of its pre-authorized_code (derived from the handle with the server
-- secret, so that neither is stored). tx_code_id is the transaction code's row in the table
-- of tx_code_channel. closed_at: redeemed at the token endpoint, or replaced by a newer offer.
CREATE TABLE credential_offers (
    id              bigserial PRIMARY KEY,
    user_id         bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    handle_hash     text NOT NULL UNIQUE,
    code_hash       text NOT NULL UNIQUE,
    tx_code_channel text NOT NULL CHECK (tx_code_channel IN ('phone', 'email')),
    tx_code_id      bigint NOT NULL,
    expires_at      timestamptz NOT NULL,
    closed_at       timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX credential_offers_user_idx ON credential_offers (user_id) WHERE closed_at IS NULL;

-- Access tokens of the credential endpoint (nothing else accepts them). jkt binds a token to a
-- DPoP key (RFC 9449); NULL is a Bearer token. A token obtains one credential: spent_at is set
-- before the credential is reserved, credential_id after; transaction_hash is the SHA-256 of
-- its deferred transaction_id until the wallet received the credential.
CREATE TABLE credential_access_tokens (
    id               bigserial PRIMARY KEY,
    token_hash       text NOT NULL UNIQUE,
    user_id          bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    offer_id         bigint NOT NULL REFERENCES credential_offers (id) ON DELETE CASCADE,
    jkt              text,
    expires_at       timestamptz NOT NULL,
    spent_at         timestamptz,
    credential_id    bigint REFERENCES credentials (id) ON DELETE SET NULL,
    transaction_hash text UNIQUE,
    created_at       timestamptz NOT NULL DEFAULT now()
);

-- c_nonce values of the nonce endpoint, single-use: a key proof's nonce is deleted as it is used.
CREATE TABLE credential_nonces (
    nonce_hash text PRIMARY KEY,
    expires_at timestamptz NOT NULL
);
CREATE INDEX credential_nonces_expiry_idx ON credential_nonces (expires_at);

-- +goose Down
DROP TABLE credential_nonces;
DROP TABLE credential_access_tokens;
DROP TABLE credential_offers;
DELETE FROM verification_codes WHERE purpose = 'credential_offer';
DELETE FROM email_verification_codes WHERE purpose = 'credential_offer';
ALTER TABLE verification_codes DROP CONSTRAINT verification_codes_purpose_check,
    ADD CONSTRAINT verification_codes_purpose_check
        CHECK (purpose IN ('register', 'login', 'widget', 'invitation', 'contact_change', 'confirmation'));
ALTER TABLE email_verification_codes DROP CONSTRAINT email_verification_codes_purpose_check,
    ADD CONSTRAINT email_verification_codes_purpose_check
        CHECK (purpose IN ('register', 'login', 'widget', 'invitation', 'contact_change', 'confirmation'));
