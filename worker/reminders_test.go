package worker_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/worker"
)

// reminderFixture runs the reminder jobs on a controllable clock, with recording providers and a
// queue whose tasks the test runs by hand.
type reminderFixture struct {
	*fixture
	now time.Time
}

func reminderSetup(t *testing.T) *reminderFixture {
	t.Helper()
	f := &reminderFixture{}
	f.fixture = newFixture(t, worker.Deps{Now: func() time.Time { return f.now }})
	return f
}

// person is a validated level-3 user with both contacts.
func (f *reminderFixture) person(t *testing.T, validated time.Time) (int64, string, string) {
	t.Helper()
	var id int64
	phone := fmt.Sprintf("+5255%08d", time.Now().UnixNano()%100_000_000)
	email := fmt.Sprintf("r%d@ejemplo.mx", time.Now().UnixNano())
	require.NoError(t, f.db.Get(&id, `INSERT INTO users (nombre, email, phone_number, vigencia, fecha_validacion, id_validado,
		verification_level, biometric_verified) VALUES ('Ana López', $1, $2, 1, $3, $4, 3, true) RETURNING id`,
		email, phone, validated, perfilseguro.NewProfileID()))
	return id, email, phone
}

// tick runs profile:remind and then every delivery it queued; it returns the deliveries' errors.
func (f *reminderFixture) tick(t *testing.T) []error {
	t.Helper()
	task, err := jobs.NewRecordRemindersTask(f.now.Format(time.RFC3339))
	require.NoError(t, err)
	require.NoError(t, f.w.Handler().ProcessTask(context.Background(), task))
	f.queue.mu.Lock()
	queued := f.queue.tasks
	f.queue.tasks = nil
	f.queue.mu.Unlock()
	var errs []error
	for _, q := range queued {
		require.Equal(t, jobs.TypeSendReminder, q.Type())
		errs = append(errs, f.w.Handler().ProcessTask(context.Background(), q))
	}
	return errs
}

// The reminders go out 30 and 7 days before the end, on e-mail and WhatsApp, once each, with the
// renewal link; a renewal starts the next validity's reminders from scratch.
func TestRenewalRemindersGoOutOnceAt30And7DaysAhead(t *testing.T) {
	t.Parallel()
	f := reminderSetup(t)
	validated := time.Date(2025, 12, 1, 18, 0, 0, 0, time.UTC)
	end := validated.AddDate(1, 0, 0)
	id, email, phone := f.person(t, validated)

	f.now = end.Add(-31 * 24 * time.Hour)
	require.Empty(t, f.tick(t))
	require.Zero(t, f.mail.count()+f.wa.count(), "31 days ahead: nothing yet")

	f.now = end.Add(-30 * 24 * time.Hour)
	for _, err := range f.tick(t) {
		require.NoError(t, err)
	}
	require.Equal(t, 1, f.mail.count())
	require.Equal(t, 1, f.wa.count())
	require.Contains(t, f.mail.sent[0], email+"|Tu validación en Perfil Seguro vence en 30 días|")
	require.Contains(t, f.mail.sent[0], "vence el 01/12/2026")
	require.Contains(t, f.mail.sent[0], "https://perfilseguro.mx/profile")
	require.True(t, strings.HasPrefix(f.wa.sent[0], phone+"|PS-"), f.wa.sent[0])
	require.True(t, strings.HasSuffix(f.wa.sent[0], "|30|https://perfilseguro.mx/profile"), f.wa.sent[0])

	// Later runs inside the same window send nothing more.
	for _, d := range []time.Duration{time.Hour, 10 * 24 * time.Hour} {
		f.now = end.Add(-30*24*time.Hour + d)
		require.Empty(t, f.tick(t))
	}
	require.Equal(t, 2, f.mail.count()+f.wa.count())

	f.now = end.Add(-7 * 24 * time.Hour)
	require.Len(t, f.tick(t), 2)
	require.Contains(t, f.mail.sent[1], "vence en 7 días")
	require.Contains(t, f.wa.sent[1], "|7|")
	f.now = end.Add(-time.Hour)
	require.Empty(t, f.tick(t))
	require.Equal(t, 4, f.mail.count()+f.wa.count())

	// A renewal: the new validity gets its own reminders a year later, none now.
	_, err := f.db.Exec(`UPDATE users SET fecha_validacion = $2 WHERE id = $1`, id, f.now)
	require.NoError(t, err)
	require.Empty(t, f.tick(t))
	f.now = f.now.AddDate(1, 0, 0).Add(-29 * 24 * time.Hour)
	require.Len(t, f.tick(t), 2)
	require.Equal(t, 6, f.mail.count()+f.wa.count())
}

// A reminder about a validity that changed before it went out is not sent; a refusal for good is
// recorded and never queued again; a passing failure is retried and sent once.
func TestRemindersThatNoLongerApplyOrFailAreNotSentTwice(t *testing.T) {
	t.Parallel()
	f := reminderSetup(t)
	validated := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	end := validated.AddDate(1, 0, 0)
	revoked, _, _ := f.person(t, validated)
	f.now = end.Add(-20 * 24 * time.Hour)

	// Recorded and queued, then revoked before the deliveries ran.
	task, err := jobs.NewRecordRemindersTask("t1")
	require.NoError(t, err)
	require.NoError(t, f.w.Handler().ProcessTask(context.Background(), task))
	_, err = f.db.Exec(`UPDATE users SET revoked_at = now(), revoked_reason = 'Documento robado' WHERE id = $1`, revoked)
	require.NoError(t, err)
	for _, q := range f.queue.tasks {
		require.NoError(t, f.w.Handler().ProcessTask(context.Background(), q))
	}
	f.queue.tasks = nil
	require.Zero(t, f.mail.count()+f.wa.count(), "a revoked profile gets no reminder")
	var failures []string
	require.NoError(t, f.db.Select(&failures, `SELECT failure FROM expiry_reminders WHERE user_id = $1`, revoked))
	require.Equal(t, []string{"perfil revocado", "perfil revocado"}, failures)

	// WhatsApp refuses for good, e-mail fails for a moment.
	f.person(t, validated)
	f.wa.err = fmt.Errorf("not a WhatsApp user: %w", perfilseguro.ErrPermanent)
	f.mail.err = errors.New("smtp: connection refused")
	errs := f.tick(t)
	require.Len(t, errs, 2)
	var skipped, retried int
	for _, err := range errs {
		require.Error(t, err)
		if errors.Is(err, asynq.SkipRetry) {
			skipped++
		} else {
			retried++
		}
	}
	require.Equal(t, 1, skipped, "the permanent refusal is not retried")
	require.Equal(t, 1, retried, "the passing failure is")

	f.wa.err, f.mail.err = nil, nil
	errs = f.tick(t)
	require.Len(t, errs, 1, "only the e-mail is queued again")
	require.NoError(t, errs[0])
	require.Equal(t, 1, f.mail.count())
	require.Zero(t, f.wa.count())
	require.Empty(t, f.tick(t))
}

// When the ID expires before the plan ends (issue 52), the reminders come before the ID's
// expiry, name its date and say the ID is why; a person whose ID outlives the plan is told
// nothing about it.
func TestRemindersSayWhenTheIDEndsTheValidity(t *testing.T) {
	t.Parallel()
	f := reminderSetup(t)
	validated := time.Date(2025, 12, 1, 18, 0, 0, 0, time.UTC)
	capped, email, _ := f.person(t, validated)
	_, err := f.db.Exec(`UPDATE users SET name_source = 'document', document_expires_on = '2026-06-30' WHERE id = $1`, capped)
	require.NoError(t, err)
	plain, plainEmail, _ := f.person(t, validated)
	_, err = f.db.Exec(`UPDATE users SET name_source = 'document', document_expires_on = '2035-12-31' WHERE id = $1`, plain)
	require.NoError(t, err)

	end := perfilseguro.DocumentValidThrough(time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)) // 1 July 00:00 in Mexico City
	f.now = end.Add(-30 * 24 * time.Hour)
	for _, err := range f.tick(t) {
		require.NoError(t, err)
	}
	require.Equal(t, 1, f.mail.count(), "only the capped validity is 30 days from its end")
	require.Contains(t, f.mail.sent[0], email+"|Tu validación en Perfil Seguro vence en 30 días|")
	require.Contains(t, f.mail.sent[0], "vence el 30/06/2026, en 30 días (tu identificación vence el 30/06/2026; para renovarla necesitarás una identificación vigente)")

	f.now = validated.AddDate(1, 0, 0).Add(-30 * 24 * time.Hour)
	for _, err := range f.tick(t) {
		require.NoError(t, err)
	}
	require.Equal(t, 2, f.mail.count())
	require.Contains(t, f.mail.sent[1], plainEmail+"|")
	require.Contains(t, f.mail.sent[1], "vence el 01/12/2026, en 30 días.")
	require.NotContains(t, f.mail.sent[1], "identificación")
}
