package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/secure"
)

func TestAdminHashPasswordPrintsAHashTheAPIAccepts(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	require.NoError(t, runAdmin(context.Background(), []string{"hash-password"}, strings.NewReader("clave-de-equipo\n"), &out, &errOut))
	hash := strings.TrimSpace(out.String())
	require.True(t, strings.HasPrefix(hash, "$2a$12$"), hash)
	require.True(t, api.CheckAdminPassword(hash, "clave-de-equipo"))
	require.False(t, api.CheckAdminPassword(hash, "clave-de-equipo\n"))

	require.Error(t, runAdmin(context.Background(), []string{"hash-password"}, strings.NewReader("  \n"), &out, &errOut), "blank password")
	err := runAdmin(context.Background(), nil, strings.NewReader(""), &out, &errOut)
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
	require.Regexp(t, `partner \d+ added: CasaLista \(https://casalista.mx\), key pk_live_[0-9a-f]{24}, permissions widget_auth`, out.String())
	require.Regexp(t, `secret keys [^\n]*\n  live sk_live_[0-9a-f]{48}\n  test sk_test_[0-9a-f]{48}\n`, out.String())
	key := strings.Fields(out.String()[strings.Index(out.String(), "key "):])[1]
	key = strings.TrimSuffix(key, ",")

	err := runPartner(ctx, []string{"add", "-name", "X", "-domain", "a"}, &out, &errOut)
	require.ErrorContains(t, err, "El dominio es requerido")

	// With a webhook: its signing secret is printed once, and stored for the worker to sign with.
	out.Reset()
	require.NoError(t, runPartner(ctx, []string{"add", "-name", "ValorCasa", "-domain", "http://127.0.0.1:8081", "-webhook", "http://127.0.0.1:8081/webhooks/perfilseguro"}, &out, &errOut))
	m := regexp.MustCompile(`signing secret \(shown only now\):\n  (whsec_[0-9a-f]{48})\n`).FindStringSubmatch(out.String())
	require.NotNil(t, m, out.String())
	db, err := sqlx.Open("postgres", os.Getenv("DATABASE_URL"))
	require.NoError(t, err)
	defer db.Close()
	var stored string
	require.NoError(t, db.Get(&stored, `SELECT webhook_secret FROM api_keys WHERE domain = 'http://127.0.0.1:8081'`))
	require.Equal(t, m[1], stored)
	require.ErrorContains(t, runPartner(ctx, []string{"add", "-name", "Otra", "-domain", "otra.mx", "-webhook", "ftp://x"}, &out, &errOut), "not an http(s) URL")

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

	out.Reset()
	require.NoError(t, runPartner(ctx, []string{"enable", key}, &out, &errOut))
	require.Contains(t, out.String(), "enabled")
	out.Reset()
	require.NoError(t, runPartner(ctx, []string{"list"}, &out, &errOut))
	require.Regexp(t, `https://casalista.mx\s+true`, out.String())
}

// The CLI follows the one origin rule (issue 54 item 12): not ours, not another active partner's.
func TestPartnerAddRefusesOurOriginAndATakenOne(t *testing.T) {
	_, dsn := pgtest.New(t)
	t.Setenv("DATABASE_URL", dsn)
	t.Setenv("APP_ENV", "test")
	t.Setenv("PUBLIC_BASE_URL", "https://perfilseguro.example")
	ctx := context.Background()
	var out, errOut bytes.Buffer
	require.ErrorContains(t, runPartner(ctx, []string{"add", "-name", "Impostor", "-domain", "https://perfilseguro.example"}, &out, &errOut),
		"Ese origen es de Perfil Seguro")
	require.ErrorContains(t, runPartner(ctx, []string{"add", "-name", "Impostor", "-domain", "www.perfilseguro.example"}, &out, &errOut),
		"Ese origen es de Perfil Seguro")
	require.NoError(t, runPartner(ctx, []string{"add", "-name", "CasaLista", "-domain", "casalista.mx"}, &out, &errOut))
	require.ErrorContains(t, runPartner(ctx, []string{"add", "-name", "Copia", "-domain", "https://CasaLista.mx/"}, &out, &errOut),
		"Otra plataforma ya registró ese origen")
}

func TestAdminCreatePrintsASingleUseEnrolmentLink(t *testing.T) {
	db, dsn := pgtest.New(t)
	t.Setenv("DATABASE_URL", dsn)
	t.Setenv("APP_ENV", "test")
	t.Setenv("PUBLIC_BASE_URL", "https://panel.example")
	ctx := context.Background()
	var out, errOut bytes.Buffer
	require.NoError(t, runAdmin(ctx, []string{"create", "--email", "Ana@Example.com", "--name", "Ana López", "--role", "soporte"},
		nil, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "Ana López <ana@example.com>, role soporte")
	m := regexp.MustCompile(`https://panel\.example/admin-enrol\?token=([0-9a-f]{64})`).FindStringSubmatch(out.String())
	require.NotNil(t, m, out.String())
	token := m[1]

	store := &postgres.Store{DB: db}
	a, err := store.AdminEnrolment(ctx, secure.HashToken(token), time.Now())
	require.NoError(t, err)
	require.Equal(t, "ana@example.com", a.Email)
	_, err = store.AdminEnrolment(ctx, secure.HashToken(token), time.Now().Add(24*time.Hour+time.Minute))
	require.ErrorIs(t, err, postgres.ErrEnrolmentNotUsable, "expired after 24 hours")
	id, err := store.ConsumeAdminEnrolment(ctx, db, secure.HashToken(token), time.Now())
	require.NoError(t, err)
	require.Equal(t, a.ID, id)
	_, err = store.ConsumeAdminEnrolment(ctx, db, secure.HashToken(token), time.Now())
	require.ErrorIs(t, err, postgres.ErrEnrolmentNotUsable, "single use")

	// The same e-mail twice is refused; a bad role is refused; a new link for an existing one works.
	err = runAdmin(ctx, []string{"create", "--email", "ana@example.com", "--name", "Otra"}, nil, &out, &errOut)
	require.ErrorContains(t, err, "Ya existe un administrador")
	err = runAdmin(ctx, []string{"create", "--email", "b@example.com", "--name", "Beto", "--role", "jefe"}, nil, &out, &errOut)
	require.ErrorContains(t, err, "Rol no válido")
	out.Reset()
	require.NoError(t, runAdmin(ctx, []string{"enrol", "--email", "ana@example.com"}, nil, &out, &errOut))
	require.Regexp(t, `admin-enrol\?token=[0-9a-f]{64}`, out.String())
	var n int
	require.NoError(t, db.Get(&n, `SELECT count(*) FROM audit_events WHERE actor_kind = 'system' AND target_id = $1`, fmt.Sprint(a.ID)))
	require.Equal(t, 2, n, "create and enrolment recorded")
}
