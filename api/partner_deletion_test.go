package api_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// Issue 54, item 3 applied to deletion: profile.deleted names the person to a partner only by
// what the partner already has (its sessions and references; the profile ID only if shared with
// it), never by the profile ID of whoever first came through its platform.

// deleteAccount deletes the signed-in person's account, confirming with a code as Mi Perfil does.
func (e *env) deleteAccount(t *testing.T, person *browser, uid int64) {
	t.Helper()
	self := "/api/users/" + itoa(uid)
	r := e.send(t, person.http, "POST", self+"/confirmation-code", nil)
	require.Equal(t, http.StatusAccepted, r.Status, string(r.Body))
	r = e.send(t, person.http, "POST", self+"/confirmation", map[string]string{"code": r.JSON(t)["verificationCode"].(string)})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	r = e.send(t, person.http, "DELETE", self, nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
}

// Before the fix, deleting a person who came through the partner sent it their profile ID (which
// they had not shared) and no session; now each partner the person shared with hears of it by its
// sessions, and one that was never shown anything hears nothing.
func TestADeletionTellsThePartnerOnlyWhatItAlreadyHas(t *testing.T) {
	t.Parallel()
	e, _, pk := sessionEnv(t)
	server := []string{"Authorization", "Bearer " + e.secretKey(t, pk, true)}
	partnerID := dbGet[int64](t, e.db, `SELECT id FROM api_keys WHERE key_id = $1`, pk)
	deletedNotices := func() []map[string]any {
		var raw []string
		require.NoError(t, e.db.Select(&raw, `SELECT payload::text FROM partner_deliveries
			WHERE partner_id = $1 AND event = 'profile.deleted' ORDER BY id`, partnerID))
		out := make([]map[string]any, len(raw))
		for i, r := range raw {
			require.NoError(t, json.Unmarshal([]byte(r), &out[i]))
		}
		return out
	}
	cameThrough := func(uid int64) string {
		_, err := e.db.Exec(`UPDATE users SET partner_id = $2 WHERE id = $1`, uid, partnerID)
		require.NoError(t, err)
		return dbGet[string](t, e.db, `SELECT id_validado FROM users WHERE id = $1`, uid)
	}

	// Shared its name only: the notice names the sessions, never the profile ID.
	nameOnly, uid := e.signedInAt(t, 2)
	profileID := cameThrough(uid)
	first := e.completeSession(t, server, pk, nameOnly, "cliente-1", "name")
	second := e.completeSession(t, server, pk, nameOnly, "cliente-2", "name", "level")
	e.deleteAccount(t, nameOnly, uid)
	got := deletedNotices()
	require.Len(t, got, 1)
	require.Equal(t, "profile.deleted", got[0]["event"])
	require.Equal(t, true, got[0]["livemode"])
	require.NotEmpty(t, got[0]["deletedAt"])
	require.Equal(t, []any{map[string]any{"id": second, "reference": "cliente-2"}, map[string]any{"id": first, "reference": "cliente-1"}},
		got[0]["sessions"], "newest first, with the partner's own references")
	require.NotContains(t, got[0], "profileId")
	require.NotContains(t, got[0], "userId")
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM partner_deliveries WHERE payload::text LIKE '%' || $1 || '%'`, profileID))

	// Shared the profile ID: the notice carries it.
	shared, uid := e.signedInAt(t, 2)
	profileID = dbGet[string](t, e.db, `SELECT id_validado FROM users WHERE id = $1`, uid)
	id := e.completeSession(t, server, pk, shared, "cliente-3", "name", "profileId")
	e.deleteAccount(t, shared, uid)
	got = deletedNotices()
	require.Len(t, got, 2)
	require.Equal(t, profileID, got[1]["profileId"])
	require.Equal(t, []any{map[string]any{"id": id, "reference": "cliente-3"}}, got[1]["sessions"])

	// Came through the partner and never shared with it: nothing to recognise them by, no notice.
	never, uid := e.signedInAt(t, 2)
	profileID = cameThrough(uid)
	e.deleteAccount(t, never, uid)
	require.Len(t, deletedNotices(), 2)
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM partner_deliveries WHERE payload::text LIKE '%' || $1 || '%'`, profileID))
}
