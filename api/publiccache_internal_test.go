package api

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/postgres"
)

func TestPublicCacheServesOnlyWhileItsFeedProvesItCurrent(t *testing.T) {
	c := newPublicCache()
	const pid = "PS-0000-0000-07"
	p := record(t, postgres.PublicProfile{UserID: 7, IDValidado: pid, Nombre: "Ana"})
	_, gen, ok := c.get(pid)
	require.False(t, ok)
	c.put(pid, p, gen)
	_, _, ok = c.get(pid)
	require.False(t, ok, "nothing is cached before a feed says the cache is current")

	c.FreshUntil(time.Now().Add(time.Second))
	_, gen, _ = c.get(pid)
	c.put(pid, p, gen)
	got, _, ok := c.get(pid)
	require.True(t, ok)
	require.Contains(t, string(got.answer(time.Now())), `"nombre":"Ana"`)

	c.FreshUntil(time.Now().Add(-time.Millisecond)) // an older heartbeat never moves the bound back
	_, _, ok = c.get(pid)
	require.True(t, ok)
	c.freshUntil.Store(time.Now().Add(-time.Millisecond).UnixNano()) // the feed went quiet
	_, _, ok = c.get(pid)
	require.False(t, ok, "a cache whose feed went quiet is not served")
}

func TestPublicCacheNeverStoresARecordReadBeforeAChange(t *testing.T) {
	c := newPublicCache()
	c.FreshUntil(time.Now().Add(time.Minute))
	const pid = "PS-0000-0000-07"
	old := record(t, postgres.PublicProfile{UserID: 7, IDValidado: pid, Nombre: "Ana"})
	_, gen, _ := c.get(pid) // a lookup begins and reads Postgres…
	c.Changed(pid)          // …while a change commits and is announced
	c.put(pid, old, gen)    // the read that began before the change ends
	_, _, ok := c.get(pid)
	require.False(t, ok, "the record read before the change was not kept")

	_, gen, _ = c.get(pid)
	c.put(pid, old, gen)
	_, _, ok = c.get(pid)
	require.True(t, ok)
	c.forgetUser(7)
	_, _, ok = c.get(pid)
	require.False(t, ok, "forgetting by user id drops the record")

	_, gen, _ = c.get(pid)
	c.put(pid, old, gen)
	c.Reset()
	_, _, ok = c.get(pid)
	require.False(t, ok, "a reset drops everything")
}

func record(t *testing.T, p postgres.PublicProfile) publicRecord {
	t.Helper()
	r, err := renderPublicRecord(p)
	require.NoError(t, err)
	return r
}

// A record rendered once answers, at every moment, exactly what rendering it then would: the
// same bytes as encoding/json gives for publicVerification. Whether it is expired is decided at
// each answer, so a cached record turns Expirado the moment its validity ends.
func TestARenderedRecordAnswersAsPublicVerificationWould(t *testing.T) {
	validated := time.Date(2025, 11, 22, 12, 0, 0, 0, time.UTC)
	sessionAt := validated.Add(-time.Hour)
	email, phone, env, sid := "ana@example.com", "+525512345678", "production", "sess-1"
	score := 93.5
	profiles := map[string]postgres.PublicProfile{
		"validated, with a session": {UserID: 1, IDValidado: "PS-0000-0000-01", Nombre: "Ana López", Email: &email,
			PhoneNumber: &phone, Origen: "CasaLista", VerificationLevel: 3, BiometricVerified: true,
			FechaValidacion: &validated, Vigencia: 1, SessionID: &sid, SessionEnv: &env, SessionAt: &sessionAt,
			OverallScore: &score, LivenessScore: &score},
		"never validated, no contacts": {UserID: 2, IDValidado: "PS-0000-0000-02", Nombre: "Beto", Origen: "Otro", Vigencia: 5},
		"a name that spells the markers": {UserID: 3, IDValidado: "PS-0000-0000-03",
			Nombre: `"expirado":false "timestamp":"0001-01-01T00:00:00Z" <b>&`, Origen: "Otro",
			FechaValidacion: &validated, Vigencia: 10, VerificationLevel: 3, BiometricVerified: true},
	}
	moments := []time.Time{validated.AddDate(1, 0, 0).Add(-time.Nanosecond), validated.AddDate(1, 0, 0),
		validated.AddDate(1, 0, 0).Add(time.Nanosecond), time.Date(2040, 1, 2, 3, 4, 5, 678, time.FixedZone("CST", -6*3600))}
	for name, p := range profiles {
		r := record(t, p)
		for _, now := range moments {
			want, err := json.Marshal(publicVerification(p, now))
			require.NoError(t, err)
			require.Equal(t, string(want)+"\n", string(r.answer(now)), "%s at %v", name, now)
		}
	}
	require.False(t, record(t, profiles["validated, with a session"]).expired(validated.AddDate(1, 0, 0)))
	require.True(t, record(t, profiles["validated, with a session"]).expired(validated.AddDate(1, 0, 0).Add(time.Nanosecond)))
}
