package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/jobs"
)

func TestAdministratorRevokesAProfileWithAReason(t *testing.T) {
	t.Parallel()
	e := setup(t)
	id, pid := seedUser(t, e.db, seeded{Level: 3})
	revoke := fmt.Sprintf("/api/admin/users/%d/revoke", id)
	reason := map[string]string{"motivo": "  Documento   reportado como robado "}

	r := e.send(t, anonymous(), "POST", revoke, reason)
	require.Equal(t, http.StatusUnauthorized, r.Status, "administrators only")
	admin := e.adminClient(t)
	r = e.send(t, admin, "POST", revoke, map[string]string{"motivo": "   "})
	require.Equal(t, http.StatusBadRequest, r.Status)
	require.Equal(t, "El motivo de la revocación es requerido", r.JSON(t)["errors"].(map[string]any)["motivo"])
	r = e.send(t, admin, "POST", revoke, map[string]string{"motivo": strings.Repeat("x", 501)})
	require.Equal(t, http.StatusBadRequest, r.Status)
	require.Equal(t, "El motivo no puede exceder 500 caracteres", r.JSON(t)["errors"].(map[string]any)["motivo"])
	r = e.send(t, admin, "POST", "/api/admin/users/99999999/revoke", reason)
	require.Equal(t, http.StatusNotFound, r.Status)

	status, v, _ := e.verify(t, pid)
	require.Equal(t, http.StatusOK, status)
	require.True(t, v.Profile.Verificado)

	r = e.send(t, admin, "POST", revoke, reason)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	u := r.JSON(t)
	require.Equal(t, "Documento reportado como robado", u["revokedReason"])
	require.NotNil(t, u["revokedAt"])
	require.EqualValues(t, 3, u["verificationLevel"], "the account stays as it was")

	r = e.send(t, admin, "POST", revoke, reason)
	require.Equal(t, http.StatusConflict, r.Status)
	require.Equal(t, "Este perfil ya está revocado.", r.JSON(t)["message"])

	// The public answer says Revocado and no longer Verificado; the reason is never public.
	res, body := get(t, e.srv.Client(), e.srv.URL+"/api/verify/"+pid)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, string(body), `"revocado":true`)
	require.Contains(t, string(body), `"verificado":false`)
	require.NotContains(t, string(body), "robado")

	r = e.send(t, admin, "GET", fmt.Sprintf("/api/admin/users/%d/lifecycle", id), nil)
	require.Equal(t, http.StatusOK, r.Status)
	events := r.JSON(t)["events"].([]any)
	require.Len(t, events, 1)
	ev := events[0].(map[string]any)
	require.Equal(t, "revoked", ev["tipo"])
	require.Equal(t, "admin", ev["quien"])
	require.Equal(t, "Documento reportado como robado", ev["motivo"])
	require.Equal(t, "127.0.0.1", ev["ip"])
	r = e.send(t, anonymous(), "GET", fmt.Sprintf("/api/admin/users/%d/lifecycle", id), nil)
	require.Equal(t, http.StatusUnauthorized, r.Status)
}

// Deleting a person removes the jobs that still carry their phone or e-mail (pending or
// scheduled), and leaves everybody else's.
func TestDeletingAUserPurgesTheirQueuedJobs(t *testing.T) {
	t.Parallel()
	e := setup(t)
	id, _ := seedUser(t, e.db, seeded{Level: 3, Phone: "+525511112222", Email: "borrar@example.com"})
	_, _ = seedUser(t, e.db, seeded{Level: 1, Phone: "+525533334444"})
	ctx := context.Background()
	enqueue := func(dest string, opts ...asynq.Option) {
		task, err := jobs.NewSendOTPTask(jobs.SendOTPPayload{CodeID: time.Now().UnixNano(), Channel: "phone", Via: jobs.ViaWhatsApp,
			Destination: dest, SealedCode: "sealed", ExpiresAt: time.Now().Add(10 * time.Minute)})
		require.NoError(t, err)
		_, err = e.queue.EnqueueContext(ctx, task, opts...)
		require.NoError(t, err)
	}
	enqueue("+525511112222")
	enqueue("borrar@example.com", asynq.ProcessIn(time.Hour))
	enqueue("+525533334444")

	r := e.send(t, e.adminClient(t), "DELETE", fmt.Sprintf("/api/users/%d", id), nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	var left []string
	for _, task := range e.pendingTasks(t, jobs.QueueCritical) {
		var p jobs.SendOTPPayload
		require.NoError(t, json.Unmarshal(task.Payload, &p))
		left = append(left, p.Destination)
	}
	require.Equal(t, []string{"+525533334444"}, left, "only the other person's job is left")
	insp := asynq.NewInspector(e.asynqOpt)
	defer insp.Close()
	scheduled, err := insp.ListScheduledTasks(jobs.QueueCritical)
	require.NoError(t, err)
	require.Empty(t, scheduled, "the scheduled delivery to the deleted e-mail is gone too")
}
