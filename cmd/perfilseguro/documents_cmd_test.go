package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

func TestDocumentsBackfillListPrintsTheProfilesWithoutTheirDocument(t *testing.T) {
	db, dsn := pgtest.New(t)
	t.Setenv("DATABASE_URL", dsn)
	t.Setenv("APP_ENV", "test")
	t.Setenv("DOCUMENT_DATA_KEY", "cmd-document-key-0123456789abcdef0123456")
	ctx := context.Background()
	var out, errOut bytes.Buffer
	require.NoError(t, runDocuments(ctx, []string{"backfill", "-list"}, &out, &errOut), errOut.String())
	require.Equal(t, "ningún perfil validado quedó sin certificar por su documento\n", out.String())

	// Validated before issue 52 by a decision stored without the document.
	var uid int64
	require.NoError(t, db.Get(&uid, `INSERT INTO users (nombre, id_validado, vigencia, fecha_validacion, verification_level,
		biometric_verified, didit_session_id) VALUES ('Pedro Gómez Luna', 'PS-5200-0000-09', 1, $1, 3, true, 'legacy-9') RETURNING id`,
		time.Date(2025, 5, 2, 17, 0, 0, 0, time.UTC)))
	_, err := db.Exec(`INSERT INTO verification_sessions (user_id, provider, environment, session_id, verification_status,
		completed_at, webhook_data) VALUES ($1, 'didit', 'production', 'legacy-9', 'Approved', $2, '{"session_id": "legacy-9", "status": "Approved"}')`,
		uid, time.Date(2025, 5, 2, 17, 0, 0, 0, time.UTC))
	require.NoError(t, err)
	out.Reset()
	require.NoError(t, runDocuments(ctx, []string{"backfill", "-list"}, &out, &errOut), errOut.String())
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 3, out.String())
	require.Contains(t, lines[0], "MOTIVO")
	require.Contains(t, lines[1], "PS-5200-0000-09")
	require.Contains(t, lines[1], "Pedro Gómez Luna")
	require.Contains(t, lines[1], "2025-05-02")
	require.Contains(t, lines[1], "sin datos del documento")
	require.Equal(t, "1 perfiles; conservan su nivel hasta que venza su validación", lines[2])

	require.ErrorIs(t, runDocuments(ctx, []string{"backfill", "extra"}, &out, &errOut), errUsageShown)
	errOut.Reset()
	require.True(t, errors.Is(runDocuments(ctx, []string{"nothing"}, &out, &errOut), errUsageShown))
	require.Contains(t, errOut.String(), "documents backfill -list")
}

func TestPrintBackfillListedNamesADuplicatesOwner(t *testing.T) {
	t.Parallel()
	owner := int64(7)
	var out bytes.Buffer
	require.NoError(t, printBackfillListed(&out, []postgres.IdentityBackfillListed{{VerificationID: 3, UserID: 9,
		ProfileID: "PS-0000-0000-09", Nombre: "Ana", DecidedAt: time.Date(2025, 1, 1, 3, 0, 0, 0, time.UTC),
		Reason: postgres.BackfillDuplicate, DuplicateOf: &owner}}))
	require.Contains(t, out.String(), "identificación vinculada a otro perfil (usuario 7)")
	require.Contains(t, out.String(), "2024-12-31", "the day in Mexico City")
}
