-- +goose Up
-- Issue 54, items 23 and 24: what a deleted person leaves behind.
--
-- ARCO requests keep what was asked, not the values: the app wrote a rectification's old and new
-- name or address in `details` ('Nombre: "Ana" → "Ana María"', 'Correo: a@x.mx → b@x.mx'), which
-- the administrators' list showed for ever, even after the account was deleted. Those rows now
-- say only what changed, as the app writes them from now on.
UPDATE arco_requests SET details = CASE
        WHEN details LIKE 'Nombre: %' THEN 'Nombre corregido'
        WHEN details LIKE 'Correo: %' THEN 'Correo cambiado'
        ELSE 'Teléfono cambiado' END
    WHERE channel = 'app' AND type = 'rectificacion'
      AND (details LIKE 'Nombre: %' OR details LIKE 'Correo: %' OR details LIKE 'Teléfono: %');

-- The requests of accounts deleted before this release lose the text a person or an
-- administrator typed (a deletion blanks it from now on: postgres.forgetArcoText).
UPDATE arco_requests SET
    details = CASE WHEN channel = 'correo' AND details IS NOT NULL THEN '[eliminado]' ELSE details END,
    resolution = CASE WHEN resolution IS NULL OR resolution IN ('Atendida desde Mi Perfil.',
        'Finalidad secundaria desactivada desde Mi Perfil.', 'Copia de los datos enviada por correo electrónico.')
        THEN resolution ELSE '[eliminado]' END
    WHERE user_id IS NULL;

-- The development inbox files each message under the person it went to, found by the address
-- (or profile ID) when it is stored, so a deletion takes the messages sent to their old e-mails
-- and phones too, not only those to the current ones.
ALTER TABLE dev_messages ADD COLUMN user_id bigint REFERENCES users (id) ON DELETE CASCADE;
CREATE INDEX dev_messages_user_idx ON dev_messages (user_id) WHERE user_id IS NOT NULL;
UPDATE dev_messages m SET user_id = u.id FROM users u
    WHERE m.recipient IN (u.email, u.phone_number, u.id_validado)
      AND coalesce(u.test_partner_id, 0) = coalesce(m.test_partner_id, 0);

-- +goose Down
-- Forward-only: migrations are never rolled back in production.
SELECT 1;
