-- +goose Up
-- Issue 54 items 21 and 22: a change of a person's e-mail, phone or name is told to the person
-- at the contact they had before it, and a contact change the person made can be undone from
-- that notice for a while (one stolen session must not become a permanent takeover).
--
-- One row per changed field. notify_via/notify_to is where the notice goes: the old address of
-- that field, or the person's other contact when the field had none (or for a name). The undo
-- token is kept hashed for the link's lookup and sealed (secure.Sealer) for the notice's job,
-- which builds the link; an administrator's edit has none (the person asks support instead).
-- notified_at: the notice's job marks it, so a retry never sends twice. The rows go with the
-- account (ON DELETE CASCADE).
CREATE TABLE account_changes (
    id                bigserial PRIMARY KEY,
    user_id           bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    field             text NOT NULL CHECK (field IN ('email', 'phone', 'nombre')),
    old_value         text,
    new_value         text,
    actor             text NOT NULL CHECK (actor IN ('person', 'admin')),
    notify_via        text CHECK (notify_via IN ('email', 'phone')),
    notify_to         text,
    undo_token_hash   char(64) UNIQUE,
    undo_token_sealed text,
    undo_until        timestamptz,
    undone_at         timestamptz,
    notified_at       timestamptz,
    created_at        timestamptz NOT NULL DEFAULT now(),
    CHECK ((notify_via IS NULL) = (notify_to IS NULL)),
    CHECK ((undo_token_hash IS NULL) = (undo_until IS NULL))
);
CREATE INDEX account_changes_user_idx ON account_changes (user_id, id);

-- +goose Down
SELECT 1;
