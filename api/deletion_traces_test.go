package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/aml"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// Issue 54, item 24: after a person deletes their account, nothing of them stays in Postgres, in
// Redis (keys and values) or in the data directory — not their old name, old e-mail or old phone
// either — outside what the privacy notice lists: consents blocked with the profile ID, the ARCO
// requests with the profile ID, and the audit trail naming the deletion by the profile ID
// (docs/privacy.md). Completed code deliveries, rate-limit key names, the development inbox and
// the checkout stand-in all kept something before.
func TestADeletionLeavesNothingOfThePersonOutsideWhatTheNoticeLists(t *testing.T) {
	t.Parallel()
	e := lvSetup(t)
	e.runWorker(t)
	n := rand.IntN(90_000_000) + 10_000_000
	letters := func() string {
		b := make([]byte, 8)
		for i := range b {
			b[i] = byte('a' + rand.IntN(26))
		}
		return string(b)
	}
	oldName, newName := "Rosaura Quintanilla "+letters(), "Rosaura Ybarra "+letters()
	oldEmail, newEmail := fmt.Sprintf("rosaura%d@example.com", n), fmt.Sprintf("ybarra%d@example.com", n)
	oldPhone, newPhone := fmt.Sprintf("+5255%d", n), fmt.Sprintf("+5256%d", n)

	c := e.anonymous(t)
	status, reg, _ := c.call("POST", "/api/register", map[string]string{"fullName": oldName, "email": oldEmail,
		"phoneNumber": oldPhone[3:]})
	require.Equal(t, http.StatusCreated, status, reg)
	status, out, _ := c.call("POST", "/api/verify-code", map[string]any{"sessionToken": reg["sessionToken"], "code": reg["verificationCode"]})
	require.Equal(t, http.StatusOK, status, out)
	c.id = int64(out["userId"].(float64))
	profileID := out["profileId"].(string)
	// A link to the old e-mail, with the old name; then a new name, new contacts, and a sign-in
	// code to the new ones. The contacts change in the database: how a change is proved is
	// another test's; what counts here is that the old addresses were written to.
	status, out, _ = c.call("POST", "/api/send-email-verification-link", map[string]any{"userId": c.id})
	require.Equal(t, http.StatusOK, status, out)
	e.settle(t)
	status, out, _ = c.call("PUT", c.path("/api/users/%d/personal-data"), map[string]any{"nombre": newName})
	require.Equal(t, http.StatusOK, status, out)
	_, err := e.db.Exec(`UPDATE users SET email = $2, phone_number = $3 WHERE id = $1`, c.id, newEmail, newPhone)
	require.NoError(t, err)
	_, err = e.db.Exec(`INSERT INTO dev_checkout_sessions (session_id, idempotency_key, metadata, customer_email, product_name,
		amount_total, success_url, cancel_url, payment_intent_id, expires_at)
		VALUES ('cs_test_del', 'k-del', jsonb_build_object('user_id', $1::text), $2, 'Validación 1 año', 29900,
			'http://x/ok', 'http://x/no', 'pi_test_del', now() + interval '1 hour')`, c.id, oldEmail)
	require.NoError(t, err)
	status, out, _ = e.anonymous(t).call("POST", "/api/login", map[string]string{"email": newEmail})
	require.Equal(t, http.StatusOK, status, out)
	e.settle(t)

	require.Positive(t, countOf(t, e.db, `SELECT count(*) FROM dev_messages WHERE recipient IN ($1, $2)`, oldEmail, oldPhone),
		"the old addresses were written to")
	status, out, _ = c.call("POST", c.path("/api/users/%d/confirmation-code"), nil)
	require.Equal(t, http.StatusAccepted, status, out)
	code := out["verificationCode"].(string)
	e.settle(t)
	status, out, _ = c.call("POST", c.path("/api/users/%d/confirmation"), map[string]string{"code": code})
	require.Equal(t, http.StatusOK, status, out)
	// A business's LFPIORPI file the person is in (issue 53 item 6): it outlives the account.
	partnerID := dbGet[int64](t, e.db, `INSERT INTO api_keys (key_id, partner_name, domain)
		VALUES ('pk_live_0000000000000000000d0e01', 'Inmobiliaria Diez Años', 'https://inmo.example') RETURNING id`)
	_, err = (&postgres.Store{DB: e.db, Documents: defaultTestDocumentKey}).InsertAMLOperation(t.Context(), postgres.NewAMLOperation{
		ID: "op_" + secure.NewToken(12), PartnerID: partnerID, Kind: aml.Compraventa, Amount: 350_000_000, OperationDate: time.Now(),
		PropertyReference: "Lote 1", BusinessRole: "vendedor", CreatedByLabel: "oficial@inmo.example",
		People: []postgres.NewAMLOperationPerson{{Role: "comprador", SessionID: completedSession(t, e.db, partnerID, c.id, true, "completed")}}})
	require.NoError(t, err)
	status, out, _ = c.call("DELETE", c.path("/api/users/%d"), nil)
	require.Equal(t, http.StatusOK, status, out)

	needles := []string{oldName, newName, oldEmail, newEmail, oldPhone, newPhone, oldPhone[3:], newPhone[3:], profileID}
	allowed := map[string]string{
		"consents":         "blocked 5 years with the profile ID (RetentionPeriods deleted_consents)",
		"arco_requests":    "the record of each request, with the profile ID (RetentionPeriods arco_requests)",
		"audit_events":     "the deletion, by the profile ID (RetentionPeriods audit_trail)",
		"goose_db_version": "",
	}
	holding := e.tablesHolding(t, needles)
	t.Logf("tables still naming the profile: %v", holding)
	// The AML file keeps the name it screened (the one of the day the person was added), locked;
	// never the e-mail, the phone or the profile ID (sealed with the document).
	amlFile := map[string]bool{"aml_operation_people": true}
	for table, found := range holding {
		_, ok := allowed[table]
		require.True(t, ok || amlFile[table], "table %s still holds %v", table, found)
		if amlFile[table] {
			require.Equal(t, []string{newName}, found, "%s may keep the file's name only", table)
			continue
		}
		require.Equal(t, []string{profileID}, found, "%s may keep the profile ID only", table)
	}
	require.Equal(t, []string{newName}, holding["aml_operation_people"], "the file is kept")
	require.Equal(t, 1, countOf(t, e.db, `SELECT count(*) FROM aml_operation_people WHERE person_deleted_at IS NOT NULL AND user_id IS NULL`),
		"the file is locked")
	for key, found := range redisHolding(t, e.opt, needles) {
		t.Errorf("Redis key %q still holds %v", key, found)
	}
	// The data directory holds development keys and certificates only (config DATA_DIR); when a
	// run made it, no file there may name the person either.
	if dir := e.cfg.DataDir; dir != "" {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			b, _ := os.ReadFile(path)
			for _, needle := range needles {
				require.NotContains(t, string(b), needle, "the data directory's %s", path)
			}
			return nil
		})
	}
}

// settle waits until the worker has run every job queued so far.
func (e *lvEnv) settle(t *testing.T) {
	t.Helper()
	insp := asynq.NewInspector(e.opt)
	defer insp.Close()
	require.Eventually(t, func() bool {
		queues, err := insp.Queues()
		if err != nil {
			return false
		}
		for _, q := range queues {
			info, err := insp.GetQueueInfo(q)
			if err != nil || info.Pending+info.Active+info.Scheduled+info.Retry > 0 {
				return false
			}
		}
		return true
	}, 20*time.Second, 50*time.Millisecond)
}

// tablesHolding lists, per table, which needles some row of it still contains (as text).
func (e *lvEnv) tablesHolding(t *testing.T, needles []string) map[string][]string {
	t.Helper()
	var tables []string
	require.NoError(t, e.db.Select(&tables, `SELECT table_name FROM information_schema.tables
		WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`))
	out := map[string][]string{}
	for _, table := range tables {
		for _, needle := range needles {
			q := fmt.Sprintf(`SELECT count(*) FROM %q x WHERE strpos(x::text, $1) > 0`, table)
			if countOf(t, e.db, q, needle) > 0 {
				out[table] = append(out[table], needle)
			}
		}
	}
	return out
}

// redisHolding lists the keys of the test's Redis whose name or value contains a needle.
func redisHolding(t *testing.T, opt asynq.RedisClientOpt, needles []string) map[string][]string {
	t.Helper()
	ctx := context.Background()
	rc := redis.NewClient(&redis.Options{Addr: opt.Addr, DB: opt.DB, Password: opt.Password})
	defer rc.Close()
	out := map[string][]string{}
	iter := rc.Scan(ctx, 0, "*", 500).Iterator()
	for iter.Next(ctx) {
		key := iter.Val()
		var values []string
		switch rc.Type(ctx, key).Val() {
		case "string":
			values = []string{rc.Get(ctx, key).Val()}
		case "hash":
			for k, v := range rc.HGetAll(ctx, key).Val() {
				values = append(values, k, v)
			}
		case "list":
			values = rc.LRange(ctx, key, 0, -1).Val()
		case "set":
			values = rc.SMembers(ctx, key).Val()
		case "zset":
			values = rc.ZRange(ctx, key, 0, -1).Val()
		}
		raw, _ := json.Marshal(values)
		text := key + "\x00" + strings.Join(values, "\x00") + string(raw)
		for _, needle := range needles {
			if strings.Contains(text, needle) {
				out[key] = append(out[key], needle)
			}
		}
	}
	require.NoError(t, iter.Err())
	return out
}
