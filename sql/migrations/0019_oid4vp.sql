-- +goose Up
-- OpenID4VP 1.0 (issue 28, presentation side): a partner asks a person's wallet for chosen
-- claims of their credential. Each request lives 5 minutes and is answered once. Nothing about
-- the person is kept beyond what the partner receives: the requested claims the wallet
-- disclosed (claims), never the presentation itself, the credential or who holds it.
CREATE TABLE presentation_requests (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    partner_id   bigint NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    dcql_query   jsonb NOT NULL,             -- the DCQL query sent to the wallet, as sent
    nonce        text NOT NULL,              -- the key binding JWT must carry it
    state        text NOT NULL,              -- the response must carry it
    response_key text NOT NULL,              -- the ephemeral ECDH-ES private JWK, sealed with SECRET_KEY
    status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed', 'failed', 'expired')),
    claims       jsonb,                      -- completed: the requested claims, as disclosed
    error        text,                       -- failed: a short reason, never personal data
    created_at   timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL,
    completed_at timestamptz,
    CHECK ((status = 'completed') = (claims IS NOT NULL))
);
CREATE INDEX presentation_requests_partner_idx ON presentation_requests (partner_id, created_at DESC);
CREATE INDEX presentation_requests_pending_idx ON presentation_requests (expires_at) WHERE status = 'pending';

-- +goose Down
DROP TABLE presentation_requests;
