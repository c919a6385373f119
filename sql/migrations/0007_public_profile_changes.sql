-- +goose Up
-- Every change to what the public verification shows is announced on the channel
-- public_profile_changed, payload the profile ID; so is every new profile (a cache may hold
-- "no such profile" for its ID). NOTIFY is delivered on commit (nothing for a
-- rolled-back change), so each API replica that listens can drop its cached copy of the public
-- record whichever process or statement made the change: the API, the worker, an operator's psql.
-- +goose StatementBegin
CREATE FUNCTION notify_public_profile_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'users' THEN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
            PERFORM pg_notify('public_profile_changed', OLD.id_validado);
        END IF;
        IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.id_validado <> OLD.id_validado) THEN
            PERFORM pg_notify('public_profile_changed', NEW.id_validado);
        END IF;
    ELSE -- verification_sessions: the public record shows the latest session's scores
        PERFORM pg_notify('public_profile_changed', u.id_validado)
        FROM users u WHERE u.id = CASE WHEN TG_OP = 'DELETE' THEN OLD.user_id ELSE NEW.user_id END;
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- Any column: a change that the public record does not show costs one ignored notification.
CREATE TRIGGER users_public_profile_updated AFTER UPDATE ON users
    FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION notify_public_profile_changed();
CREATE TRIGGER users_public_profile_deleted AFTER DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION notify_public_profile_changed();
CREATE TRIGGER users_public_profile_created AFTER INSERT ON users
    FOR EACH ROW EXECUTE FUNCTION notify_public_profile_changed();
CREATE TRIGGER verification_sessions_public_profile AFTER INSERT OR UPDATE OR DELETE ON verification_sessions
    FOR EACH ROW EXECUTE FUNCTION notify_public_profile_changed();

-- +goose Down
DROP TRIGGER verification_sessions_public_profile ON verification_sessions;
DROP TRIGGER users_public_profile_created ON users;
DROP TRIGGER users_public_profile_deleted ON users;
DROP TRIGGER users_public_profile_updated ON users;
DROP FUNCTION notify_public_profile_changed();
