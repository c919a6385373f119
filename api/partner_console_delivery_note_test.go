package api_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// An attempt the SSRF guard refused before the delivery log stopped naming the address still
// stores "…: the address is not public: 10.0.0.5": the console shows the partner the note, not
// the private address its webhook resolved to.
func TestTheDeliveryLogNeverShowsThePrivateAddressAWebhookResolvedTo(t *testing.T) {
	t.Parallel()
	e := consoleSetup(t)
	p := e.newPlatform(t, "CasaLista", "https://casalista.example")
	owner := e.inviteAsAdmin(t, p, "ana@casalista.example", "propietario")
	_, err := e.db.Exec(`INSERT INTO partner_deliveries (partner_id, event, payload, attempts, last_error) VALUES
		($1, 'profile.expired', '{}', 1, 'Post "https://hook.casalista.example/x": dial tcp 10.0.0.5:443: outbound: the address is not public: 10.0.0.5'),
		($1, 'profile.renewed', '{}', 1, 'HTTP 502 Bad Gateway')`, p.id)
	require.NoError(t, err)

	status, out, _ := owner.call("GET", "/api/socios/deliveries", nil)
	require.Equal(t, http.StatusOK, status, out)
	raw, _ := json.Marshal(out)
	require.NotContains(t, string(raw), "10.0.0.5")
	notes := map[string]any{}
	for _, row := range out["data"].([]any) {
		r := row.(map[string]any)
		notes[r["event"].(string)] = r["lastError"]
	}
	require.Equal(t, perfilseguro.AddressNotPublicNote, notes["profile.expired"])
	require.Equal(t, "HTTP 502 Bad Gateway", notes["profile.renewed"], "other failures read as stored")
}
