package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

func TestAdminHashPasswordPrintsAHashTheAPIAccepts(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	require.NoError(t, runAdmin([]string{"hash-password"}, strings.NewReader("clave-de-equipo\n"), &out, &errOut))
	hash := strings.TrimSpace(out.String())
	require.True(t, strings.HasPrefix(hash, "$2a$12$"), hash)
	require.True(t, api.CheckAdminPassword(hash, "clave-de-equipo"))
	require.False(t, api.CheckAdminPassword(hash, "clave-de-equipo\n"))

	require.Error(t, runAdmin([]string{"hash-password"}, strings.NewReader("  \n"), &out, &errOut), "blank password")
	err := runAdmin(nil, strings.NewReader(""), &out, &errOut)
	require.True(t, errors.Is(err, errUsage))
	require.Contains(t, errOut.String(), "hash-password")
}

func TestPartnerAddListDisable(t *testing.T) {
	_, dsn := pgtest.New(t)
	t.Setenv("DATABASE_URL", dsn)
	t.Setenv("APP_ENV", "test")
	ctx := context.Background()
	var out, errOut bytes.Buffer
	require.NoError(t, runPartner(ctx, []string{"add", "-name", "CasaLista", "-domain", "CasaLista.mx", "-notes", "piloto"}, &out, &errOut), errOut.String())
	require.Regexp(t, `partner \d+ added: CasaLista \(https://casalista.mx\), key pk_[0-9a-f]{24}, permissions widget_auth`, out.String())
	key := strings.Fields(out.String()[strings.Index(out.String(), "key "):])[1]
	key = strings.TrimSuffix(key, ",")

	err := runPartner(ctx, []string{"add", "-name", "X", "-domain", "a"}, &out, &errOut)
	require.ErrorContains(t, err, "El dominio es requerido")

	out.Reset()
	require.NoError(t, runPartner(ctx, []string{"list"}, &out, &errOut))
	require.Contains(t, out.String(), key)
	require.Regexp(t, `https://casalista.mx\s+true\s+widget_auth`, out.String())

	out.Reset()
	require.NoError(t, runPartner(ctx, []string{"disable", key}, &out, &errOut))
	require.Contains(t, out.String(), "disabled")
	out.Reset()
	require.NoError(t, runPartner(ctx, []string{"list"}, &out, &errOut))
	require.Regexp(t, `https://casalista.mx\s+false`, out.String())
	require.Error(t, runPartner(ctx, []string{"disable", "pk_missing"}, &out, &errOut))
}
