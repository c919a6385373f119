package api_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/config"
	"github.com/perfilseguro/perfilseguro/jobs"
)

// Issue 54 item 12: an origin is one platform's, never ours, and proven before live mode uses it.

func TestAnOriginIsNeverOursAndBelongsToOneActivePlatform(t *testing.T) {
	t.Parallel()
	e := consoleSetup(t)
	ours := e.rp.Origin // PUBLIC_BASE_URL

	status, out, _ := e.admin.call("POST", "/api/admin/partners", map[string]string{"partnerName": "Impostora", "domain": ours})
	require.Equal(t, http.StatusBadRequest, status, out)
	require.Contains(t, out["message"], "Ese origen es de Perfil Seguro")

	a := e.newPlatform(t, "CasaLista", "https://casalista.example")
	status, out, _ = e.admin.call("POST", "/api/admin/partners", map[string]string{"partnerName": "Copia", "domain": "https://CasaLista.example/"})
	require.Equal(t, http.StatusConflict, status, out)
	require.Contains(t, out["message"], "Otra plataforma ya registró ese origen")

	b := e.newPlatform(t, "ValorCasa", "https://valorcasa.example")
	owner := e.inviteAsAdmin(t, b, "dueño@valorcasa.example", "propietario")
	status, out, _ = owner.call("PUT", "/api/socios/origin", map[string]string{"origin": "https://casalista.example"})
	require.Equal(t, http.StatusConflict, status, out)
	status, out, _ = owner.call("PUT", "/api/socios/origin", map[string]string{"origin": ours})
	require.Equal(t, http.StatusBadRequest, status, out)
	require.Contains(t, out["message"], "Ese origen es de Perfil Seguro")

	// A deactivated platform's origin is free; reactivating it then would make two: refused.
	status, out, _ = e.admin.call("POST", fmt.Sprintf("/api/admin/partners/%d/deactivate", a.id), nil)
	require.Equal(t, http.StatusOK, status, out)
	status, out, _ = owner.call("PUT", "/api/socios/origin", map[string]string{"origin": "https://casalista.example"})
	require.Equal(t, http.StatusOK, status, out)
	status, out, _ = e.admin.call("POST", fmt.Sprintf("/api/admin/partners/%d/activate", a.id), nil)
	require.Equal(t, http.StatusConflict, status, out)
	require.Contains(t, out["message"], "Otra plataforma ya registró ese origen")
}

func TestTheConsoleShowsHowToProveTheOriginAndAsksTheWorker(t *testing.T) {
	t.Parallel()
	e := consoleSetup(t)
	p := e.newPlatform(t, "CasaLista", "https://casalista.example")
	owner := e.inviteAsAdmin(t, p, "dueña@casalista.example", "propietario")
	reader := e.invite(t, owner, "lectora@casalista.example", "lectura")

	status, out, _ := reader.call("GET", "/api/socios/origin", nil)
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, "https://casalista.example", out["origin"])
	require.Equal(t, false, out["proven"])
	require.Equal(t, "casalista.example", out["txtName"])
	require.Regexp(t, `^perfilseguro-verification=[0-9a-f]{32}$`, out["txtValue"])
	require.Equal(t, "https://casalista.example/.well-known/perfilseguro-verification.txt", out["fileUrl"])

	status, out, _ = reader.call("POST", "/api/socios/origin/verify", nil)
	require.Equal(t, http.StatusForbidden, status, out)

	status, out, _ = owner.call("POST", "/api/socios/origin/verify", nil)
	require.Equal(t, http.StatusAccepted, status, out)
	require.Contains(t, out["message"], "Revisaremos")
	insp := asynq.NewInspector(e.opt)
	defer insp.Close()
	tasks, err := insp.ListPendingTasks(jobs.QueueLow)
	require.NoError(t, err)
	var checks int
	for _, ti := range tasks {
		if ti.Type == jobs.TypeOriginProof {
			checks++
		}
	}
	require.Equal(t, 1, checks)

	// A proven origin says so; a new origin is unproven again.
	_, err = e.db.Exec(`UPDATE api_keys SET origin_proven = domain, origin_proven_at = now(), origin_checked_at = now() WHERE id = $1`, p.id)
	require.NoError(t, err)
	_, out, _ = owner.call("GET", "/api/socios/origin", nil)
	require.Equal(t, true, out["proven"])
	status, out, _ = owner.call("PUT", "/api/socios/origin", map[string]string{"origin": "https://www.casalista.example"})
	require.Equal(t, http.StatusOK, status, out)
	_, out, _ = owner.call("GET", "/api/socios/origin", nil)
	require.Equal(t, false, out["proven"])
	require.Nil(t, out["checkedAt"])
}

func TestInProductionLiveSessionsNeedAProvenOrigin(t *testing.T) {
	t.Parallel()
	e := setup(t, func(d *api.Deps) { d.Config.Env = config.EnvProduction })
	pk := "pk_live_00000000000000000000beef"
	e.addPartner(t, pk, "https://casalista.example", true, "widget_auth")
	body := map[string]any{"reference": "cliente-1", "requiredLevel": 2, "claims": []string{"name"}}

	live := e.send(t, anonymous(), "POST", "/api/partner/v1/verification-sessions", body, "Authorization", "Bearer "+e.secretKey(t, pk, true))
	require.Equal(t, http.StatusConflict, live.Status, string(live.Body))
	require.Contains(t, string(live.Body), "aún no está verificado")
	test := e.send(t, anonymous(), "POST", "/api/partner/v1/verification-sessions", body, "Authorization", "Bearer "+e.secretKey(t, pk, false))
	require.Equal(t, http.StatusCreated, test.Status, string(test.Body))

	_, err := e.db.Exec(`UPDATE api_keys SET origin_proven = domain, origin_proven_at = now() WHERE key_id = $1`, pk)
	require.NoError(t, err)
	live = e.send(t, anonymous(), "POST", "/api/partner/v1/verification-sessions", body, "Authorization", "Bearer "+e.secretKey(t, pk, true))
	require.Equal(t, http.StatusCreated, live.Status, string(live.Body))

	// A new origin is unproven: the live session made before cannot be opened on it.
	_, err = e.db.Exec(`UPDATE api_keys SET domain = 'https://www.casalista.example' WHERE key_id = $1`, pk)
	require.NoError(t, err)
	open := e.send(t, anonymous(), "POST", "/api/hosted/open", map[string]any{"clientSecret": live.JSON(t)["clientSecret"], "publishableKey": pk})
	require.Equal(t, http.StatusConflict, open.Status, string(open.Body))
	require.Contains(t, string(open.Body), "aún no está verificado")

	// The widget's calls with the live key wait for the proof too: nothing is sent on an unproven origin.
	login := e.send(t, anonymous(), "POST", "/api/widget/login", map[string]any{"email": "nueva@example.com"},
		"X-Partner-Key", pk, "Origin", "https://www.casalista.example")
	require.Equal(t, http.StatusConflict, login.Status, string(login.Body))
	require.Contains(t, string(login.Body), "aún no está verificado")
	require.Zero(t, dbGet[int](t, e.db, `SELECT count(*) FROM users WHERE email = 'nueva@example.com'`))
}
