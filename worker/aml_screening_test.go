package worker_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/screening"
	"github.com/perfilseguro/perfilseguro/secure"
	"github.com/perfilseguro/perfilseguro/worker"
)

// amlFixture is a worker over a database with a business (its cumplimiento, propietario and
// lectura users) whose operations' people are written as InsertAMLOperation copies them.
type amlFixture struct {
	*fixture
	store   *postgres.Store
	key     secure.DocumentKey
	partner int64
	ops     int
}

func newAMLFixture(t *testing.T) *amlFixture {
	t.Helper()
	key := secure.NewDocumentKey("aml-screening-test-document-key")
	f := &amlFixture{fixture: newFixture(t, worker.Deps{Documents: key}), key: key}
	f.store = &postgres.Store{DB: f.db, Documents: key}
	f.partner = f.newPartner(t, "CasaLista")
	for _, u := range [][2]string{{"oficial@casalista.mx", "cumplimiento"}, {"duena@casalista.mx", "propietario"}, {"lee@casalista.mx", "lectura"}} {
		_, err := f.db.Exec(`INSERT INTO partner_users (partner_id, email, name, role) VALUES ($1, $2, 'X', $3)`, f.partner, u[0], u[1])
		require.NoError(t, err)
	}
	return f
}

func (f *amlFixture) newPartner(t *testing.T, name string) int64 {
	t.Helper()
	var id int64
	require.NoError(t, f.db.Get(&id, `INSERT INTO api_keys (key_id, partner_name, domain) VALUES ('pk_' || md5($1), $1, lower($1) || '.mx') RETURNING id`, name))
	return id
}

// amlPerson is a person of an operation as the file copied them from their document.
type amlPerson struct {
	Name     string
	Birth    string          // yyyy-mm-dd or ""
	Decision json.RawMessage // the provider's decision, or nil
	UserID   *int64
}

// operation records an operation of partner in a mode, dated date ("" today), with people; it
// returns each person's row id.
func (f *amlFixture) operation(t *testing.T, partner int64, testMode bool, date string, people ...amlPerson) (string, []int64) {
	t.Helper()
	f.ops++
	id := fmt.Sprintf("op_%024d", f.ops)
	if date == "" {
		date = time.Now().Format(time.DateOnly)
	}
	_, err := f.db.Exec(`INSERT INTO aml_operations (id, partner_id, test_mode, kind, amount_centavos, operation_date,
		property_reference, business_role, created_by_label, retention_until)
		VALUES ($1, $2, $3, 'compraventa', 500000000, $4::date, 'Casa 1', 'vendedor', 'prueba', ($4::date + interval '10 years')::date)`,
		id, partner, testMode, date)
	require.NoError(t, err)
	var rows []int64
	for _, p := range people {
		identity, err := json.Marshal(postgres.AMLIdentity{Name: p.Name, NameSource: "document", Decision: p.Decision})
		require.NoError(t, err)
		var birth any
		if p.Birth != "" {
			birth = p.Birth
		}
		var row int64
		require.NoError(t, f.db.Get(&row, `INSERT INTO aml_operation_people (operation_id, role, user_id, screened_name, name_source,
			birth_date, identity_sealed) VALUES ($1, 'comprador', $2, $3, 'document', $4, $5) RETURNING id`,
			id, p.UserID, p.Name, birth, f.key.Sealer.Seal(string(identity))))
		rows = append(rows, row)
	}
	return id, rows
}

func (f *amlFixture) run(t *testing.T, task *asynq.Task, err error) {
	t.Helper()
	require.NoError(t, err)
	require.NoError(t, f.w.Handler().ProcessTask(context.Background(), task))
}

func (f *amlFixture) screen(t *testing.T, op string) {
	t.Helper()
	task, err := jobs.NewAMLScreenOperationTask(op)
	f.run(t, task, err)
}

type amlHitRow struct {
	Subject     string  `db:"subject"`
	ListName    string  `db:"list_name"`
	EntryID     string  `db:"entry_id"`
	MatchedName string  `db:"matched_name"`
	Score       float64 `db:"score"`
	Reasons     string  `db:"reasons"`
	Blocking    bool    `db:"blocking"`
	Source      string  `db:"source"`
	HasList     bool    `db:"has_list"`
}

func (f *amlFixture) hits(t *testing.T, person int64) []amlHitRow {
	t.Helper()
	var out []amlHitRow
	require.NoError(t, f.db.Select(&out, `SELECT h.subject, h.list_name, h.entry_id, h.matched_name, h.score::float8 AS score,
		array_to_string(h.reasons, ' | ') AS reasons, h.blocking, s.source, h.list_id IS NOT NULL AS has_list
		FROM aml_hits h JOIN aml_screenings s ON s.id = h.screening_id WHERE h.operation_person_id = $1 ORDER BY h.id`, person))
	return out
}

func (f *amlFixture) count(t *testing.T, query string, args ...any) int {
	t.Helper()
	var n int
	require.NoError(t, f.db.Get(&n, query, args...))
	return n
}

func (f *amlFixture) importUN(t *testing.T) (live, test screening.ImportResult) {
	t.Helper()
	ctx := context.Background()
	live, err := screening.ImportUNList(ctx, f.store, screening.FixtureSource)
	require.NoError(t, err)
	test, err = screening.ImportTestModeUNList(ctx, f.store)
	require.NoError(t, err)
	return live, test
}

func (f *amlFixture) upload(t *testing.T, partner int64, testMode bool, csv string) screening.ImportResult {
	t.Helper()
	res, err := screening.ImportUpload(context.Background(), f.store, partner, testMode, []byte(csv), "lpb.csv",
		"Lista de Personas Bloqueadas (UIF)", screening.ColumnMapping{Name: "Nombre", BirthDate: "Fecha"})
	require.NoError(t, err)
	return res
}

// Recording an operation screens its people against the fixture UN list: the listed people are
// found by their exact, alias, accent-less and reordered names (the birth date counted), a
// clearly different person is not, and running the job twice adds nothing.
func TestScreeningAnOperationFindsTheListedPeopleOnce(t *testing.T) {
	t.Parallel()
	f := newAMLFixture(t)
	_, testUN := f.importUN(t)
	op, rows := f.operation(t, f.partner, true, "",
		amlPerson{Name: "José Ángel Barragán Quintero", Birth: "1974-08-12"},
		amlPerson{Name: "Marielena Zepeda", Birth: "1981-03-04"},
		amlPerson{Name: "JOSE ANGEL BARRAGAN QUINTERO"},
		amlPerson{Name: "Kovalenko Olena Ivanivna", Birth: "1979-10-05"},
		amlPerson{Name: "Juan Pérez López", Birth: "1974-08-12"},
		amlPerson{Name: "José Barragán Kintero"})
	f.screen(t, op)

	// The last: a near name (a missing middle name, a surname that sounds the same).
	want := map[int]string{0: "9100001", 1: "9100002", 2: "9100001", 3: "9100006", 5: "9100001"}
	for i, entry := range want {
		hs := f.hits(t, rows[i])
		require.NotEmpty(t, hs, "person %d", i)
		require.Equal(t, entry, hs[0].EntryID, "person %d", i)
		require.Equal(t, screening.UNListName, hs[0].ListName)
		require.True(t, hs[0].Blocking, "the UN list is a blocked-persons list")
		require.Equal(t, "persona", hs[0].Subject)
		require.GreaterOrEqual(t, hs[0].Score, 0.7)
		require.NotEmpty(t, hs[0].Reasons)
	}
	require.Contains(t, f.hits(t, rows[0])[0].Reasons, "misma fecha de nacimiento", "the birth date is counted")
	require.Empty(t, f.hits(t, rows[4]), "a clearly different person sharing the birth date")

	// One screening per person and list version consulted: the test UN list only (a test operation).
	var screenings []struct {
		Person  int64 `db:"operation_person_id"`
		Version int64 `db:"version_id"`
		Count   int   `db:"candidate_count"`
	}
	require.NoError(t, f.db.Select(&screenings, `SELECT operation_person_id, version_id, candidate_count FROM aml_screenings ORDER BY operation_person_id`))
	require.Len(t, screenings, 6)
	for i, s := range screenings {
		require.Equal(t, testUN.VersionID, s.Version)
		require.Equal(t, len(f.hits(t, rows[i])), s.Count)
	}
	require.Zero(t, f.count(t, `SELECT count(*) FROM aml_operation_people WHERE screened_at IS NULL`))

	hits := f.count(t, `SELECT count(*) FROM aml_hits`)
	f.screen(t, op)
	require.Equal(t, 6, f.count(t, `SELECT count(*) FROM aml_screenings`), "a second run records nothing")
	require.Equal(t, hits, f.count(t, `SELECT count(*) FROM aml_hits`))
}

// A business's uploaded list is screened for its own operations only, and its entries block; a
// test operation sees test lists only and a live one live lists only.
func TestUploadedListsAndModesAreKeptApart(t *testing.T) {
	t.Parallel()
	f := newAMLFixture(t)
	f.importUN(t)
	other := f.newPartner(t, "OtraInmobiliaria")
	f.upload(t, f.partner, false, "Nombre,Fecha\nRoberto Carlos Méndez Ávila,05/05/1980\n")
	f.upload(t, other, false, "Nombre,Fecha\nLucía Fernanda Ortega Ríos,1990-01-01\n")
	f.upload(t, f.partner, true, "Nombre,Fecha\nGerardo Iván Solís Peña,1985-07-07\n")

	live, rows := f.operation(t, f.partner, false, "",
		amlPerson{Name: "Roberto Carlos Mendez Avila", Birth: "1980-05-05"},
		amlPerson{Name: "Lucía Fernanda Ortega Ríos", Birth: "1990-01-01"},
		amlPerson{Name: "Gerardo Iván Solís Peña", Birth: "1985-07-07"},
		amlPerson{Name: "José Ángel Barragán Quintero", Birth: "1974-08-12"})
	test, testRows := f.operation(t, f.partner, true, "",
		amlPerson{Name: "Roberto Carlos Méndez Ávila", Birth: "1980-05-05"},
		amlPerson{Name: "Gerardo Iván Solís Peña", Birth: "1985-07-07"})
	f.screen(t, live)
	f.screen(t, test)

	hs := f.hits(t, rows[0])
	require.Len(t, hs, 1, "the business's own upload")
	require.Equal(t, "Lista de Personas Bloqueadas (UIF)", hs[0].ListName)
	require.True(t, hs[0].Blocking)
	require.Empty(t, f.hits(t, rows[1]), "another business's upload is not screened")
	require.Empty(t, f.hits(t, rows[2]), "a test upload is not screened for a live operation")
	require.Len(t, f.hits(t, rows[3]), 1, "the live UN list")
	require.Empty(t, f.hits(t, testRows[0]), "a live upload is not screened for a test operation")
	require.Len(t, f.hits(t, testRows[1]), 1, "the test upload")

	// Each live person was screened against the live UN list and this business's live upload only.
	var lists []string
	require.NoError(t, f.db.Select(&lists, `SELECT DISTINCT l.name || ':' || l.test_mode FROM aml_screenings s
		JOIN screening_lists l ON l.id = s.list_id JOIN aml_operation_people p ON p.id = s.operation_person_id
		WHERE p.operation_id = $1 ORDER BY 1`, live))
	require.Equal(t, []string{"Lista consolidada del Consejo de Seguridad de la ONU:false", "Lista de Personas Bloqueadas (UIF):false"}, lists)
	require.Zero(t, f.count(t, `SELECT count(*) FROM aml_screenings s JOIN screening_lists l ON l.id = s.list_id
		JOIN aml_operation_people p ON p.id = s.operation_person_id WHERE p.operation_id = $1 AND (l.test_mode OR l.owner_id = $2)`, live, other))
}

// The beneficiario controlador of the latest declaration the person shared with this business
// is screened as well; the provider's own AML hits are recorded as 'proveedor' (not what Didit
// itself ruled a false positive).
func TestBeneficiariesAndTheProvidersScreeningAreRecorded(t *testing.T) {
	t.Parallel()
	f := newAMLFixture(t)
	f.importUN(t)
	var uid int64
	require.NoError(t, f.db.Get(&uid, `INSERT INTO users (nombre, id_validado) VALUES ('Ana Ruiz', 'PS-1111-2222-33') RETURNING id`))
	declare := func(version int, beneficiary string, partner int64) {
		answers := fmt.Sprintf(`{"occupation":"Comerciante","address":"x","rfc":"","forBeneficiary":true,
			"beneficiary":{"name":%q,"birthDate":"1962-02-03","curpOrRfc":"","relationship":"socio"},"pep":false}`, beneficiary)
		var id int64
		require.NoError(t, f.db.Get(&id, `INSERT INTO aml_declarations (user_id, test_mode, version, answers_sealed, text_sealed, text_sha256, method, evidence)
			VALUES ($1, false, $2, $3, $4, repeat('a', 64), 'codigo', '{}') RETURNING id`, uid, version, f.key.Sealer.Seal(answers), f.key.Sealer.Seal("texto")))
		_, err := f.db.Exec(`INSERT INTO aml_declaration_shares (declaration_id, partner_id) VALUES ($1, $2)`, id, partner)
		require.NoError(t, err)
	}
	declare(1, "Juan Pérez López", f.partner)
	declare(2, "Viktor Petrovich Sokoloff", f.partner)
	declare(3, "Otro Beneficiario Distinto", f.newPartner(t, "NoEsEste")) // shared with someone else

	decision := json.RawMessage(`{"session_id":"s","status":"Approved","aml_screenings":[{"node_id":"feature_aml","status":"In Review",
		"total_hits":2,"score":80,"hits":[
		{"id":"didit-hit-1","caption":"Ana Ruiz","match_score":96,"risk_score":80,"datasets":["PEP"],"review_status":"Unreviewed"},
		{"id":"didit-hit-2","caption":"Ana Ruíz Gómez","match_score":60,"risk_score":10,"review_status":"False Positive"}]}]}`)
	op, rows := f.operation(t, f.partner, false, "", amlPerson{Name: "Ana Ruiz", Birth: "1990-01-01", Decision: decision, UserID: &uid})
	f.screen(t, op)

	hs := f.hits(t, rows[0])
	require.Len(t, hs, 2)
	byEntry := map[string]amlHitRow{}
	for _, h := range hs {
		byEntry[h.EntryID] = h
	}
	b := byEntry["9100003"]
	require.Equal(t, "beneficiario", b.Subject, "the latest declaration's beneficiary, found with the birth date")
	require.True(t, b.Blocking)
	p := byEntry["didit-hit-1"]
	require.Equal(t, "proveedor", p.Source)
	require.False(t, p.HasList)
	require.False(t, p.Blocking)
	require.Equal(t, "persona", p.Subject)
	require.InDelta(t, 0.96, p.Score, 0.0001)
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM aml_screenings WHERE source = 'proveedor' AND candidate_count = 1`))
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM aml_screenings WHERE subject = 'beneficiario'
		AND screened_name = 'Viktor Petrovich Sokoloff' AND screened_birth = '1962-02-03'`))

	f.screen(t, op)
	require.Len(t, f.hits(t, rows[0]), 2, "a second run adds nothing")
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM aml_screenings WHERE source = 'proveedor'`))
}

// An operation recorded while Redis was down is screened later: the sweep queues it (not one
// recorded a moment ago: its own job goes first).
func TestTheSweepScreensOperationsRecordedWhileRedisWasDown(t *testing.T) {
	t.Parallel()
	f := newAMLFixture(t)
	f.importUN(t)
	old, rows := f.operation(t, f.partner, false, "", amlPerson{Name: "José Ángel Barragán Quintero", Birth: "1974-08-12"})
	_, err := f.db.Exec(`UPDATE aml_operation_people SET created_at = now() - interval '10 minutes' WHERE operation_id = $1`, old)
	require.NoError(t, err)
	fresh, _ := f.operation(t, f.partner, false, "", amlPerson{Name: "Juan Pérez López"})

	sweep, err := jobs.NewAMLSweepTask("2026-11-28T06:00:00Z")
	f.run(t, sweep, err)
	var queued []string
	for _, task := range f.queue.all() {
		if task.Type() == jobs.TypeAMLScreenOperation {
			var p jobs.AMLScreenOperationPayload
			require.NoError(t, json.Unmarshal(task.Payload(), &p))
			queued = append(queued, p.OperationID)
		}
	}
	require.Equal(t, []string{old}, queued, "not %s, recorded a moment ago", fresh)
	f.screen(t, old)
	require.Len(t, f.hits(t, rows[0]), 1)

	before := len(f.queue.all())
	f.run(t, sweep, nil)
	for _, task := range f.queue.all()[before:] {
		require.NotEqual(t, jobs.TypeAMLScreenOperation, task.Type(), "screened: not queued again")
	}
}

// A list's new version: the re-screen finds its new entry in every file still kept (a deleted
// account's too), not in files past their retention; the business is told once, by e-mail to its
// cumplimiento and propietario users, with the count and no one's name; a second run tells
// nothing.
func TestARescreenAfterANewVersionFindsTheNewEntryAndNotifiesOnce(t *testing.T) {
	t.Parallel()
	f := newAMLFixture(t)
	f.importUN(t)
	f.upload(t, f.partner, false, "Nombre,Fecha\nRoberto Carlos Méndez Ávila,05/05/1980\n")
	kept, rows := f.operation(t, f.partner, false, "",
		amlPerson{Name: "Ernesto Salvador Cárdenas Villa", Birth: "1970-02-02"},
		amlPerson{Name: "Ernesto Salvador Cardenas Villa", Birth: "1970-02-02"})
	expired, oldRows := f.operation(t, f.partner, false, time.Now().AddDate(-11, 0, 0).Format(time.DateOnly),
		amlPerson{Name: "Ernesto Salvador Cárdenas Villa", Birth: "1970-02-02"})
	f.screen(t, kept)
	f.screen(t, expired)
	require.Empty(t, f.hits(t, rows[0]))
	// The second person deletes their account: the file is locked against partners, not against us.
	_, err := f.db.Exec(`UPDATE aml_operation_people SET user_id = NULL, person_deleted_at = now() WHERE id = $1`, rows[1])
	require.NoError(t, err)

	v2 := f.upload(t, f.partner, false, "Nombre,Fecha\nRoberto Carlos Méndez Ávila,05/05/1980\nErnesto Salvador Cárdenas Villa,02/02/1970\n")
	require.True(t, v2.Created)
	before := len(f.queue.all())
	rescreen, err := jobs.NewAMLRescreenTask(jobs.AMLRescreenReason(v2.VersionID))
	f.run(t, rescreen, err)

	for _, r := range rows {
		hs := f.hits(t, r)
		require.Len(t, hs, 1)
		require.Equal(t, "Lista de Personas Bloqueadas (UIF)", hs[0].ListName)
	}
	require.Empty(t, f.hits(t, oldRows[0]), "a file past its retention is not re-screened")
	notices := f.queuedOf(before, jobs.TypeAMLNotifyHits)
	require.Len(t, notices, 1, "one notice for the business")
	var run struct {
		People   int        `db:"people"`
		NewHits  int        `db:"new_hits"`
		Finished *time.Time `db:"finished_at"`
	}
	require.NoError(t, f.db.Get(&run, `SELECT people, new_hits, finished_at FROM aml_rescreens WHERE reason = $1`, jobs.AMLRescreenReason(v2.VersionID)))
	require.Equal(t, 2, run.People)
	require.Equal(t, 2, run.NewHits)
	require.NotNil(t, run.Finished)

	f.run(t, notices[0], nil)
	require.Equal(t, 2, f.mail.count(), "cumplimiento and propietario, not lectura")
	for _, m := range f.mail.sent {
		require.Contains(t, m, "2 coincidencias nuevas por revisar")
		require.Contains(t, m, "https://perfilseguro.mx/socios")
		require.NotContains(t, m, "Cárdenas")
		require.NotContains(t, m, "lee@casalista.mx")
	}
	require.Zero(t, f.count(t, `SELECT count(*) FROM aml_hits WHERE notified_at IS NULL`))

	// Again: the same run is over, a new run finds nothing new, the notice tells nobody again.
	before = len(f.queue.all())
	f.run(t, rescreen, nil)
	again, err := jobs.NewAMLRescreenTask("otra-razon")
	f.run(t, again, err)
	require.Empty(t, f.queuedOf(before, jobs.TypeAMLNotifyHits))
	f.run(t, notices[0], nil)
	require.Equal(t, 2, f.mail.count())
	require.Equal(t, 2, f.count(t, `SELECT count(*) FROM aml_hits`))
}

// A new UN list version queues the re-screen of every file (live and test each); an unchanged
// list queues none.
func TestTheUNImportQueuesARescreenOnANewVersion(t *testing.T) {
	t.Parallel()
	f := newAMLFixture(t)
	task, err := jobs.NewImportUNListTask(screening.FixtureSource)
	f.run(t, task, err)
	require.Len(t, f.queuedOf(0, jobs.TypeAMLRescreen), 2)
	before := len(f.queue.all())
	f.run(t, task, nil)
	require.Empty(t, f.queuedOf(before, jobs.TypeAMLRescreen), "an identical file adds no version")
}

// A test operation's notice goes to the partner's test inbox, never to the live e-mail provider.
func TestATestModeNoticeGoesToTheTestInbox(t *testing.T) {
	t.Parallel()
	inbox := &recorder{}
	key := secure.NewDocumentKey("aml-screening-test-document-key")
	f := &amlFixture{fixture: newFixture(t, worker.Deps{Documents: key, TestInbox: func(int64) worker.TestInbox { return inbox }}), key: key}
	f.store = &postgres.Store{DB: f.db, Documents: key}
	f.partner = f.newPartner(t, "CasaLista")
	_, err := f.db.Exec(`INSERT INTO partner_users (partner_id, email, name, role) VALUES ($1, 'oficial@casalista.mx', 'X', 'cumplimiento')`, f.partner)
	require.NoError(t, err)
	f.importUN(t)
	op, _ := f.operation(t, f.partner, true, "", amlPerson{Name: "José Ángel Barragán Quintero", Birth: "1974-08-12"})
	f.screen(t, op)
	notices := f.queuedOf(0, jobs.TypeAMLNotifyHits)
	require.Len(t, notices, 1)
	f.run(t, notices[0], nil)
	require.Zero(t, f.mail.count(), "nothing test reaches the live provider")
	require.Equal(t, 1, inbox.count())
	require.Contains(t, inbox.sent[0], "modo de prueba")
}

// all is every task queued so far.
func (q *lvQueue) all() []*asynq.Task {
	q.mu.Lock()
	defer q.mu.Unlock()
	return append([]*asynq.Task(nil), q.tasks...)
}

// queuedOf is the tasks of type typ queued after the first from.
func (f *amlFixture) queuedOf(from int, typ string) []*asynq.Task {
	var out []*asynq.Task
	for _, task := range f.queue.all()[from:] {
		if task.Type() == typ {
			out = append(out, task)
		}
	}
	return out
}
