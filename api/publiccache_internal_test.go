package api

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/postgres"
)

func TestPublicCacheServesOnlyWhileItsFeedProvesItCurrent(t *testing.T) {
	c := newPublicCache()
	p := postgres.PublicProfile{UserID: 7, IDValidado: "PS-0000-0000-07", Nombre: "Ana"}
	_, gen, ok := c.get(p.IDValidado)
	require.False(t, ok)
	c.put(p, gen)
	_, _, ok = c.get(p.IDValidado)
	require.False(t, ok, "nothing is cached before a feed says the cache is current")

	c.FreshUntil(time.Now().Add(time.Second))
	_, gen, _ = c.get(p.IDValidado)
	c.put(p, gen)
	got, _, ok := c.get(p.IDValidado)
	require.True(t, ok)
	require.Equal(t, "Ana", got.Nombre)

	c.FreshUntil(time.Now().Add(-time.Millisecond)) // an older heartbeat never moves the bound back
	_, _, ok = c.get(p.IDValidado)
	require.True(t, ok)
	c.freshUntil.Store(time.Now().Add(-time.Millisecond).UnixNano()) // the feed went quiet
	_, _, ok = c.get(p.IDValidado)
	require.False(t, ok, "a cache whose feed went quiet is not served")
}

func TestPublicCacheNeverStoresARecordReadBeforeAChange(t *testing.T) {
	c := newPublicCache()
	c.FreshUntil(time.Now().Add(time.Minute))
	old := postgres.PublicProfile{UserID: 7, IDValidado: "PS-0000-0000-07", Nombre: "Ana"}
	_, gen, _ := c.get(old.IDValidado) // a lookup begins and reads Postgres…
	c.Changed(old.IDValidado)          // …while a change commits and is announced
	c.put(old, gen)                    // the read that began before the change ends
	_, _, ok := c.get(old.IDValidado)
	require.False(t, ok, "the record read before the change was not kept")

	_, gen, _ = c.get(old.IDValidado)
	c.put(old, gen)
	_, _, ok = c.get(old.IDValidado)
	require.True(t, ok)
	c.forgetUser(7)
	_, _, ok = c.get(old.IDValidado)
	require.False(t, ok, "forgetting by user id drops the record")

	_, gen, _ = c.get(old.IDValidado)
	c.put(old, gen)
	c.Reset()
	_, _, ok = c.get(old.IDValidado)
	require.False(t, ok, "a reset drops everything")
}

// Whether a record is expired is decided at each answer, so a cached record turns Expirado the
// moment its validity ends, with no change to announce.
func TestACachedRecordExpiresByTheCalendar(t *testing.T) {
	validated := time.Date(2025, 11, 22, 12, 0, 0, 0, time.UTC)
	p := postgres.PublicProfile{IDValidado: "PS-0000-0000-07", FechaValidacion: &validated, Vigencia: 1,
		VerificationLevel: 3, BiometricVerified: true}
	require.False(t, publicVerification(p, validated.AddDate(1, 0, 0).Add(-time.Second)).Profile.Expirado)
	require.True(t, publicVerification(p, validated.AddDate(1, 0, 0).Add(time.Second)).Profile.Expirado)
}
