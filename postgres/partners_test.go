package postgres_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
)

func TestNormalizeOriginGivesTheBrowserOriginForm(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"CasaLista.mx":                 "https://casalista.mx",
		"https://WWW.CasaLista.mx/x?y": "https://www.casalista.mx",
		"http://localhost:3000":        "http://localhost:3000",
		"https://valorcasa.mx:443":     "https://valorcasa.mx",
		" http://a.mx:80/ ":            "http://a.mx",
	} {
		got, ok := postgres.NormalizeOrigin(in)
		require.True(t, ok, in)
		require.Equal(t, want, got, in)
	}
	for _, bad := range []string{"ftp://casalista.mx", "https://", "javascript:alert(1)", "https://user:pw@a.mx"} {
		_, ok := postgres.NormalizeOrigin(bad)
		require.False(t, ok, bad)
	}
}

func TestPartnerRules(t *testing.T) {
	t.Parallel()
	p := postgres.NewPartner{PartnerName: "  Casa   Lista ", Domain: "CasaLista.mx", CreatedBy: " ops ", Notes: ""}
	require.NoError(t, p.Normalize())
	require.Equal(t, "Casa Lista", p.PartnerName)
	require.Equal(t, "https://casalista.mx", p.Domain)
	require.Equal(t, []string{"widget_auth"}, p.Permissions, "permissions default to widget_auth")
	require.Equal(t, "ops", p.CreatedBy)

	short := postgres.NewPartner{PartnerName: "AB", Domain: "x"}
	err := short.Normalize()
	var de *perfilseguro.Error
	require.ErrorAs(t, err, &de)
	require.Equal(t, perfilseguro.EINVALID, de.Code)
	require.Equal(t, "El dominio es requerido", de.Fields["domain"])
	require.Equal(t, "El nombre del socio debe tener al menos 3 caracteres", de.Fields["partnerName"])

	bad := postgres.NewPartner{PartnerName: "Socio", Domain: "widget", Permissions: []string{"Drop Table"}}
	require.ErrorAs(t, bad.Normalize(), &de)
	require.Contains(t, de.Fields["permissions"], "Permiso no válido")
}

func TestPartnerLifecycle(t *testing.T) {
	t.Parallel()
	ctx, _, s := setup(t)

	np := postgres.NewPartner{PartnerName: "CasaLista", Domain: "https://casalista.mx", Notes: "piloto"}
	require.NoError(t, np.Normalize())
	a, err := s.InsertPartner(ctx, np)
	require.NoError(t, err)
	require.Regexp(t, `^pk_live_[0-9a-f]{24}$`, a.KeyID)
	require.True(t, a.IsActive)
	require.Equal(t, []string{"widget_auth"}, a.Permissions)
	require.Nil(t, a.CreatedBy)
	require.Equal(t, "piloto", *a.Notes)

	b, err := s.InsertPartner(ctx, postgres.NewPartner{PartnerName: "VentaDirecta", Domain: "https://ventadirecta.mx", Permissions: []string{"widget_auth"}})
	require.NoError(t, err)
	require.NotEqual(t, a.KeyID, b.KeyID)

	list, err := s.Partners(ctx)
	require.NoError(t, err)
	require.Len(t, list, 2)
	require.Equal(t, b.ID, list[0].ID, "newest first")

	got, err := s.ActivePartnerByOrigin(ctx, "https://casalista.mx")
	require.NoError(t, err)
	require.NotNil(t, got, "the stored domain is the browser's Origin form")
	require.Equal(t, a.ID, got.ID)
	byKey, err := s.PartnerByRef(ctx, a.KeyID)
	require.NoError(t, err)
	require.Equal(t, a.ID, byKey.ID)

	off, err := s.DeactivatePartner(ctx, a.ID)
	require.NoError(t, err)
	require.False(t, off.IsActive)
	got, err = s.ActivePartnerByOrigin(ctx, "https://casalista.mx")
	require.NoError(t, err)
	require.Nil(t, got, "a deactivated partner's origin is no longer authorized")

	require.NoError(t, s.DeletePartner(ctx, a.ID))
	require.ErrorIs(t, s.DeletePartner(ctx, a.ID), postgres.ErrPartnerNotFound)
	_, err = s.DeactivatePartner(ctx, 999999)
	require.ErrorIs(t, err, postgres.ErrPartnerNotFound)
	_, err = s.PartnerByRef(ctx, strings.Repeat("x", 5))
	require.ErrorIs(t, err, postgres.ErrPartnerNotFound)
}
