package postgres_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/provider/devsim"
)

// Issue 54, item 23: the rectifications the app recorded before 0029 named the old and new
// values; the migration leaves only what was asked, blanks what was typed for accounts already
// deleted, and files old development-inbox messages under their person.
func TestMigration0029KeepsWhatWasAskedNotTheValues(t *testing.T) {
	t.Parallel()
	db := migratedTo(t, 23)
	exec := execer(t, db)
	var live int64
	require.NoError(t, db.Get(&live, `INSERT INTO users (nombre, email, phone_number, id_validado, vigencia, verification_level, origen)
		VALUES ('Ana María Ruiz', 'ana.nueva@example.com', '+525512340001', 'PS-1111-2222-33', 1, 1, 'Otro') RETURNING id`))
	arco := `INSERT INTO arco_requests (user_id, profile_id, type, state, channel, details, resolution, due_at, resolved_at)
		VALUES ($1, $2, $3, 'atendida', $4, $5, $6, now(), now())`
	exec(arco, live, "PS-1111-2222-33", "rectificacion", "app", `Nombre: "Ana Ruiz" → "Ana María Ruiz"`, "Atendida desde Mi Perfil.")
	exec(arco, live, "PS-1111-2222-33", "rectificacion", "app", "Correo: ana@example.com → ana.nueva@example.com", "Atendida desde Mi Perfil.")
	exec(arco, live, "PS-1111-2222-33", "rectificacion", "app", "Teléfono: +525599990000 → +525512340001", "Atendida desde Mi Perfil.")
	exec(arco, nil, "PS-4444-5555-66", "acceso", "correo", "Beto Pérez escribió desde beto@example.com", "Se envió a beto@example.com")
	exec(arco, nil, "PS-4444-5555-66", "cancelacion", "app", "Eliminación de la cuenta desde Mi Perfil", "Atendida desde Mi Perfil.")
	exec(`INSERT INTO dev_messages (channel, recipient, body_text) VALUES ('email', 'ana.nueva@example.com', 'hola'),
		('email', 'otra@example.com', 'hola')`)

	require.NoError(t, postgres.Migrate(t.Context(), db))

	var details []string
	require.NoError(t, db.Select(&details, `SELECT details FROM arco_requests WHERE user_id = $1 ORDER BY id`, live))
	require.Equal(t, []string{"Nombre corregido", "Correo cambiado", "Teléfono cambiado"}, details)
	var deleted []struct {
		Details    string `db:"details"`
		Resolution string `db:"resolution"`
	}
	require.NoError(t, db.Select(&deleted, `SELECT details, resolution FROM arco_requests WHERE user_id IS NULL ORDER BY id`))
	require.Equal(t, "[eliminado]", deleted[0].Details, "typed by an administrator")
	require.Equal(t, "[eliminado]", deleted[0].Resolution)
	require.Equal(t, "Eliminación de la cuenta desde Mi Perfil", deleted[1].Details, "the app's own words stay")
	require.Equal(t, "Atendida desde Mi Perfil.", deleted[1].Resolution)
	var filed int
	require.NoError(t, db.Get(&filed, `SELECT count(*) FROM dev_messages WHERE user_id = $1`, live))
	require.Equal(t, 1, filed)
}

// Item 23: deletion blanks what a person or an administrator typed in the person's ARCO
// requests and keeps the app's words; the retention run erases answered requests after 5 years.
func TestDeletionBlanksTypedArcoTextAndRetentionErasesOldAnswers(t *testing.T) {
	t.Parallel()
	ctx, db, s := setup(t)
	email, phone := "rosa@example.com", "+525512340002"
	id, pid := insertPerson(t, s, postgres.NewUser{Nombre: "Rosa Bermúdez", Email: &email, Phone: &phone})
	now := time.Now()
	for _, r := range []postgres.NewArcoRequest{
		{UserID: id, Type: perfilseguro.ArcoRectify, Channel: perfilseguro.ArcoChannelApp, State: perfilseguro.ArcoDone,
			Details: postgres.ArcoNameCorrected, Resolution: postgres.ArcoAnsweredInApp, Now: now},
		{UserID: id, Type: perfilseguro.ArcoAccess, Channel: perfilseguro.ArcoChannelEmail,
			Details: "Rosa Bermúdez pide sus datos desde rosa@example.com", Now: now},
		{UserID: id, Type: perfilseguro.ArcoOppose, Channel: perfilseguro.ArcoChannelApp, State: perfilseguro.ArcoDone,
			Details: perfilseguro.PurposeReminders, Resolution: postgres.ArcoObjectionDone, Now: now},
	} {
		_, err := s.AddArcoRequest(ctx, db, r)
		require.NoError(t, err)
	}
	require.NoError(t, s.DeleteUser(ctx, id))
	list, err := s.ArcoRequests(ctx, true, 10)
	require.NoError(t, err)
	require.Len(t, list, 3)
	got := map[string]string{}
	for _, a := range list {
		require.Equal(t, pid, a.ProfileID, "the record of the request keeps the profile ID")
		got[a.Type] = *a.Details
	}
	require.Equal(t, map[string]string{perfilseguro.ArcoRectify: postgres.ArcoNameCorrected,
		perfilseguro.ArcoAccess: "[eliminado]", perfilseguro.ArcoOppose: perfilseguro.PurposeReminders}, got)

	keep := perfilseguro.RetentionOf(perfilseguro.RetainArcoRequests)
	require.Equal(t, 5*365*24*time.Hour, keep)
	_, err = db.Exec(`UPDATE arco_requests SET resolved_at = $1 WHERE type = 'rectificacion'`, now.Add(-keep-time.Hour))
	require.NoError(t, err)
	res, err := s.ApplyRetention(ctx, now)
	require.NoError(t, err)
	require.EqualValues(t, 1, res[perfilseguro.RetainArcoRequests])
	var left []string
	require.NoError(t, db.Select(&left, `SELECT type FROM arco_requests ORDER BY type`))
	require.Equal(t, []string{perfilseguro.ArcoAccess, perfilseguro.ArcoOppose}, left, "an open request is never erased")
}

// Item 24: the development inbox files a message under the person its address (or profile ID)
// belongs to in its mode, so a deletion takes the messages to their earlier addresses too.
func TestDevInboxMessagesGoWithThePersonNotTheAddress(t *testing.T) {
	t.Parallel()
	ctx, db, s := setup(t)
	email, phone := "old.rosa@example.com", "+525512340003"
	id, pid := insertPerson(t, s, postgres.NewUser{Nombre: "Rosa Bermúdez", Email: &email, Phone: &phone})
	in := devsim.Inbox{DB: db}
	require.NoError(t, in.SendOTP(ctx, phone, "123456"))
	require.NoError(t, in.SendEmail(ctx, perfilseguro.Email{To: email, Subject: "Hola", Text: "Hola Rosa"}))
	require.NoError(t, in.SendEmail(ctx, perfilseguro.Email{To: "someone.else@example.com", Subject: "Hola", Text: "Hola"}))
	_, err := db.Exec(`UPDATE users SET email = 'new.rosa@example.com', phone_number = '+525512340004' WHERE id = $1`, id)
	require.NoError(t, err)
	var filed int
	require.NoError(t, db.Get(&filed, `SELECT count(*) FROM dev_messages WHERE user_id = $1`, id))
	require.Equal(t, 2, filed)

	require.NoError(t, s.DeleteUser(ctx, id))
	var left []string
	require.NoError(t, db.Select(&left, `SELECT recipient FROM dev_messages`))
	require.Equal(t, []string{"someone.else@example.com"}, left, "the messages to %s's earlier addresses went too", pid)
}
