package api_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// Every action keeps its record (issue 38): an action and its audit event are written in one
// transaction, so when the event cannot be written the action does not happen either.
func TestAnActionWhoseRecordCannotBeWrittenDoesNotHappen(t *testing.T) {
	t.Parallel()
	e, admin := adminSetup(t)
	r := e.send(t, admin, "POST", "/api/users", map[string]any{"nombre": "Lucía Hernández", "email": "lucia@casalista.mx", "origen": "CasaLista", "vigencia": 1})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	created := r.JSON(t)
	id, pid := int64(created["id"].(float64)), created["id_validado"].(string)
	count := func(query string, args ...any) int {
		return countOf(t, e.db, query, args...)
	}
	users, partners := count(`SELECT count(*) FROM users`), count(`SELECT count(*) FROM api_keys`)

	// From here the trail refuses the events of these actions, as a lost connection or a full
	// disk between the change and its record would.
	_, err := e.db.Exec(`CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN
			IF NEW.action IN ('user.create', 'user.update', 'user.delete', 'partner.create', 'arco.create') THEN
				RAISE EXCEPTION 'audit trail unavailable';
			END IF;
			RETURN NEW;
		END $$;
		CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION refuse_audit()`)
	require.NoError(t, err)

	user := fmt.Sprintf("/api/users/%d", id)
	r = e.send(t, admin, "PUT", user, map[string]any{"nombre": "Lucía H. Pérez", "email": "lucia@casalista.mx", "origen": "Broker", "vigencia": 5})
	require.Equal(t, http.StatusInternalServerError, r.Status, string(r.Body))
	require.Equal(t, "Ocurrió un error interno. Intenta nuevamente.", r.JSON(t)["message"])
	got := e.send(t, admin, "GET", user, nil).JSON(t)
	require.Equal(t, "Lucía Hernández", got["nombre"], "the edit rolled back with its record")
	require.Equal(t, "CasaLista", got["origen"])

	require.Equal(t, http.StatusInternalServerError, e.send(t, admin, "DELETE", user, nil).Status)
	require.Equal(t, http.StatusOK, e.send(t, admin, "GET", user, nil).Status, "the person was not deleted")

	r = e.send(t, admin, "POST", "/api/users", map[string]any{"nombre": "Otra Persona", "email": "otra@casalista.mx", "origen": "CasaLista", "vigencia": 1})
	require.Equal(t, http.StatusInternalServerError, r.Status)
	require.Equal(t, users, count(`SELECT count(*) FROM users`), "no user without its record")

	r = e.send(t, admin, "POST", "/api/admin/partners", map[string]any{"partnerName": "CasaLista", "domain": "casalista.mx"})
	require.Equal(t, http.StatusInternalServerError, r.Status)
	require.Equal(t, partners, count(`SELECT count(*) FROM api_keys`), "no partner (nor keys) without its record")

	r = e.send(t, admin, "POST", "/api/admin/arco-requests", map[string]any{"profileId": pid, "type": "acceso", "details": "Pidió sus datos por correo."})
	require.Equal(t, http.StatusInternalServerError, r.Status)
	require.Zero(t, count(`SELECT count(*) FROM arco_requests`))

	// With the trail back, the same edit goes through and is recorded exactly once.
	_, err = e.db.Exec(`DROP TRIGGER refuse_audit ON audit_events`)
	require.NoError(t, err)
	r = e.send(t, admin, "PUT", user, map[string]any{"nombre": "Lucía H. Pérez", "email": "lucia@casalista.mx", "origen": "Broker", "vigencia": 5})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, 1, count(`SELECT count(*) FROM audit_events WHERE action = 'user.update' AND target_id = $1`, fmt.Sprint(id)))
}
