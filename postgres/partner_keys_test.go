package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
)

func TestUpgradeMakesAnExistingPartnersKeyItsLivePublishableKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := migratedTo(t, 19)
	const legacy = "pk_0123456789abcdef01234567"
	_, err := db.Exec(`INSERT INTO api_keys (key_id, partner_name, domain) VALUES ($1, 'CasaLista', 'https://casalista.mx')`, legacy)
	require.NoError(t, err)

	require.NoError(t, postgres.Migrate(ctx, db))
	store := &postgres.Store{DB: db}
	kp, err := store.PartnerByKey(ctx, legacy)
	require.NoError(t, err)
	require.NotNil(t, kp, "the seed's key still finds its partner")
	require.Equal(t, "CasaLista", kp.Partner.PartnerName)
	require.Equal(t, perfilseguro.KeyPublishable, kp.Key.Kind)
	require.True(t, kp.Key.Livemode)
	kind, live, ok := perfilseguro.ParsePartnerKey(legacy)
	require.True(t, ok)
	require.True(t, live)
	require.Equal(t, perfilseguro.KeyPublishable, kind)
}

func TestPartnerKeysRotateAndRevoke(t *testing.T) {
	t.Parallel()
	ctx, db, store := setup(t)
	p := casaLista(t, store)

	// A second live secret key works beside the first (rotation), until the first is revoked.
	second, err := store.InsertPartnerKey(ctx, db, p.ID, perfilseguro.KeySecret, true, "ops")
	require.NoError(t, err)
	for _, k := range []string{p.Keys.SecretLive, second.Key} {
		kp, err := store.PartnerByKey(ctx, k)
		require.NoError(t, err)
		require.NotNil(t, kp)
		require.Equal(t, p.ID, kp.Partner.ID)
	}
	first, err := store.PartnerByKey(ctx, p.Keys.SecretLive)
	require.NoError(t, err)
	_, err = store.RevokePartnerKey(ctx, p.ID, first.Key.ID, time.Now())
	require.NoError(t, err)
	gone, err := store.PartnerByKey(ctx, p.Keys.SecretLive)
	require.NoError(t, err)
	require.Nil(t, gone, "a revoked key finds nothing")
	_, err = store.RevokePartnerKey(ctx, p.ID, first.Key.ID, time.Now())
	require.ErrorIs(t, err, postgres.ErrKeyNotFound)
	still, err := store.PartnerByKey(ctx, second.Key)
	require.NoError(t, err)
	require.NotNil(t, still)

	// Another partner cannot revoke this partner's key.
	other, err := store.CreatePartner(ctx, postgres.NewPartner{PartnerName: "ValorCasa", Domain: "https://valorcasa.mx", Permissions: []string{"widget_auth"}})
	require.NoError(t, err)
	_, err = store.RevokePartnerKey(ctx, other.ID, still.Key.ID, time.Now())
	require.ErrorIs(t, err, postgres.ErrKeyNotFound)

	keys, err := store.PartnerKeys(ctx, p.ID)
	require.NoError(t, err)
	require.Len(t, keys, 5)
	for _, k := range keys {
		require.NotEqual(t, p.Keys.SecretLive, k.Hint, "a secret key is listed only as a hint")
		if k.Kind == perfilseguro.KeySecret {
			require.Regexp(t, `^sk_(live|test)_…[0-9a-f]{4}$`, k.Hint)
		}
	}
	// A deactivated partner's keys find nothing.
	_, err = store.DeactivatePartner(ctx, p.ID)
	require.NoError(t, err)
	off, err := store.PartnerByKey(ctx, second.Key)
	require.NoError(t, err)
	require.Nil(t, off)
}
