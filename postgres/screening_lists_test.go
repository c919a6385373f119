package postgres_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/screening"
)

func countRows(t *testing.T, db interface {
	Get(dest any, query string, args ...any) error
}, table string) int {
	t.Helper()
	var n int
	require.NoError(t, db.Get(&n, `SELECT count(*) FROM `+table))
	return n
}

func TestImportingAnIdenticalUNListMakesNoNewVersion(t *testing.T) {
	t.Parallel()
	ctx, db, store := setup(t)
	first, err := screening.ImportUNList(ctx, store, screening.FixtureSource)
	require.NoError(t, err)
	require.True(t, first.Created)
	require.Equal(t, 1, first.Version)
	require.Equal(t, 15, first.Entries)

	again, err := screening.ImportUNList(ctx, store, screening.FixtureSource)
	require.NoError(t, err)
	require.False(t, again.Created)
	require.Equal(t, first.VersionID, again.VersionID)
	require.Equal(t, 1, countRows(t, db, "screening_list_versions"))
	require.Equal(t, 15, countRows(t, db, "screening_entries"))

	// The test-mode copy is a list of its own: test keys never screen against the live one.
	test, err := screening.ImportTestModeUNList(ctx, store)
	require.NoError(t, err)
	require.True(t, test.Created)
	require.NotEqual(t, first.ListID, test.ListID)

	var v struct {
		Source string `db:"source"`
		SHA    string `db:"sha256"`
	}
	require.NoError(t, db.Get(&v, `SELECT source, sha256 FROM screening_list_versions WHERE id = $1`, first.VersionID))
	require.Equal(t, screening.FixtureSource, v.Source)
	require.Equal(t, first.SHA256, v.SHA)
}

func TestANewUNListVersionMakesItsNewEntryFindable(t *testing.T) {
	t.Parallel()
	ctx, db, store := setup(t)
	_, err := screening.ImportUNList(ctx, store, screening.FixtureSource)
	require.NoError(t, err)
	person := screening.Person{Name: "Gerardo Iván Salcedo Mora"}
	ix, err := store.LoadScreeningIndex(ctx)
	require.NoError(t, err)
	require.Empty(t, ix.Screen(person, 0.7))
	require.NotEmpty(t, ix.Screen(screening.Person{Name: "Jose Angel Barragan Quintero"}, 0.7))

	// The next publication adds one person.
	added := strings.Replace(string(screening.FixtureUNList()), "  </INDIVIDUALS>", `    <INDIVIDUAL>
      <DATAID>9100099</DATAID>
      <FIRST_NAME>GERARDO IVÁN</FIRST_NAME><SECOND_NAME>SALCEDO</SECOND_NAME><THIRD_NAME>MORA</THIRD_NAME>
      <UN_LIST_TYPE>Al-Qaida</UN_LIST_TYPE><REFERENCE_NUMBER>QDi.999</REFERENCE_NUMBER><LISTED_ON>2026-11-27</LISTED_ON>
      <INDIVIDUAL_DATE_OF_BIRTH><TYPE_OF_DATE>EXACT</TYPE_OF_DATE><DATE>1988-09-12</DATE></INDIVIDUAL_DATE_OF_BIRTH>
    </INDIVIDUAL>
  </INDIVIDUALS>`, 1)
	path := filepath.Join(t.TempDir(), "consolidated.xml")
	require.NoError(t, os.WriteFile(path, []byte(added), 0o600))
	second, err := screening.ImportUNList(ctx, store, path)
	require.NoError(t, err)
	require.True(t, second.Created)
	require.Equal(t, 2, second.Version)
	require.Equal(t, 16, second.Entries)
	require.Equal(t, 15+16, countRows(t, db, "screening_entries"), "every version is kept")

	ix, err = store.LoadScreeningIndex(ctx)
	require.NoError(t, err)
	entries, _ := ix.Size()
	require.Equal(t, 16, entries, "only the latest version is screened against")
	got := ix.Screen(person, 0.7)
	require.Len(t, got, 1)
	require.Equal(t, "9100099", got[0].EntryID)
	require.Equal(t, 2, got[0].ListVersion)
	require.Equal(t, second.VersionID, got[0].VersionID)
	require.Equal(t, screening.UNListName, got[0].ListName)
}

func TestTheUNImportRefusesAMissingSourceAndABrokenFile(t *testing.T) {
	t.Parallel()
	ctx, db, store := setup(t)
	_, err := screening.ImportUNList(ctx, store, "")
	require.ErrorContains(t, err, screening.SourceEnv)
	_, err = screening.ImportUNList(ctx, store, filepath.Join(t.TempDir(), "absent.xml"))
	require.Error(t, err)
	broken := filepath.Join(t.TempDir(), "broken.xml")
	require.NoError(t, os.WriteFile(broken, []byte("<CONSOLIDATED_LIST><INDIVIDUALS>"), 0o600))
	_, err = screening.ImportUNList(ctx, store, broken)
	require.Error(t, err)
	require.Equal(t, 0, countRows(t, db, "screening_lists"))
	require.Equal(t, "", screening.DefaultUNSource(true), "production screens against no fixture")
	require.Equal(t, screening.FixtureSource, screening.DefaultUNSource(false))
}

func TestAnUploadedListKeepsItsRFCAndCURPSealed(t *testing.T) {
	t.Parallel()
	ctx, db, store := setup(t)
	var partner int64
	require.NoError(t, db.Get(&partner, `INSERT INTO api_keys (key_id, partner_name, domain) VALUES ('pk_lpb', 'CasaLista', 'https://casalista.mx') RETURNING id`))
	const curp = "CANR790503MDFMVS09"
	csv := "\xef\xbb\xbfFolio;Nombre;Fecha;CURP;Extra\nLPB-1;Rosa Elvira Campos Nava;03/05/1979;" + curp + ";x\nLPB-2;Héctor Núñez Ríos;;;\n"
	m := screening.ColumnMapping{Name: "nombre", BirthDate: "fecha", Identifier: "curp", Reference: "folio"}
	res, err := screening.ImportUpload(ctx, store, partner, false, []byte(csv), "lpb.csv", "Lista de Personas Bloqueadas", m)
	require.NoError(t, err)
	require.True(t, res.Created)
	require.Equal(t, 2, res.Entries)

	var stored []string
	require.NoError(t, db.Select(&stored, `SELECT entry::text || coalesce(identifiers_sealed, '') || coalesce(array_to_string(identifier_hashes, ','), '') FROM screening_entries`))
	for _, s := range stored {
		require.NotContains(t, s, curp, "the CURP is never stored in clear")
	}
	ids, err := store.ScreeningEntriesWithIdentifier(ctx, strings.ToLower(curp))
	require.NoError(t, err)
	require.Equal(t, []string{"LPB-1"}, ids)

	lists, err := store.LatestScreeningLists(ctx)
	require.NoError(t, err)
	require.Len(t, lists, 1)
	require.Equal(t, partner, lists[0].Owner)
	require.Equal(t, screening.KindUIFUpload, lists[0].Kind)
	require.Equal(t, []string{curp}, lists[0].Entries[0].Identifiers)
	require.Equal(t, []screening.BirthDate{{Date: "1979-05-03"}}, lists[0].Entries[0].BirthDates)

	ix := screening.NewIndex(lists)
	require.Len(t, ix.ScreenFor(screening.Person{Name: "Hector Nunez Rios"}, 0.7, partner, false), 1)
	require.Empty(t, ix.ScreenFor(screening.Person{Name: "Hector Nunez Rios"}, 0.7, partner+1, false), "another partner's upload")
}

func TestAMalformedUploadIsRefusedInSpanishAndNothingIsImported(t *testing.T) {
	t.Parallel()
	ctx, db, store := setup(t)
	var partner int64
	require.NoError(t, db.Get(&partner, `INSERT INTO api_keys (key_id, partner_name, domain) VALUES ('pk_bad', 'CasaLista', 'https://casalista.mx') RETURNING id`))
	csv := "Nombre;Fecha\nRosa Campos;03/05/1979\nHéctor Núñez;1979-13-45\n"
	_, err := screening.ImportUpload(ctx, store, partner, false, []byte(csv), "lpb.csv", "LPB", screening.ColumnMapping{Name: "Nombre", BirthDate: "Fecha"})
	var ue *screening.UploadError
	require.True(t, errors.As(err, &ue))
	require.Equal(t, 3, ue.Row)
	require.Equal(t, "fila 3, columna «Fecha»: «1979-13-45» no es una fecha (dd/mm/aaaa)", err.Error())
	require.Equal(t, 0, countRows(t, db, "screening_lists"))
	require.Equal(t, 0, countRows(t, db, "screening_entries"))
}
