package screening

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func fixtureIndex(t *testing.T) *Index {
	t.Helper()
	l, err := ParseUNList(FixtureUNList(), FixtureSource)
	require.NoError(t, err)
	return NewIndex([]ListVersion{{ListID: 1, Name: l.Name, Kind: l.Kind, VersionID: 10, Version: 1, Entries: l.Entries}})
}

func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

func top(cs []Candidate) Candidate {
	if len(cs) == 0 {
		return Candidate{}
	}
	return cs[0]
}

func TestParseUNListReadsTheRealElements(t *testing.T) {
	t.Parallel()
	l, err := ParseUNList(FixtureUNList(), FixtureSource)
	require.NoError(t, err)
	require.Equal(t, KindUN, l.Kind)
	require.Len(t, l.Entries, 15)
	require.Len(t, l.SHA256, 64)
	byID := map[string]Entry{}
	for _, e := range l.Entries {
		byID[e.ID] = e
	}
	jose := byID["9100001"]
	require.Equal(t, "JOSÉ ÁNGEL BARRAGÁN QUINTERO", jose.Name)
	require.Equal(t, "QDi.901", jose.Reference)
	require.Equal(t, []BirthDate{{Date: "1974-08-12"}}, jose.BirthDates)
	require.Equal(t, []string{"Mexico"}, jose.Nationalities)
	require.Len(t, jose.Aliases, 2)
	require.Equal(t, []BirthDate{{Year: 1981}}, byID["9100002"].BirthDates)
	require.True(t, byID["9100002"].Aliases[1].Low)
	require.Equal(t, []BirthDate{{FromYear: 1968, ToYear: 1970}}, byID["9100004"].BirthDates)
	require.Equal(t, "Виктор Петрович Соколов", byID["9100003"].OriginalName)
	require.Empty(t, byID["9100005"].Aliases, "an empty INDIVIDUAL_ALIAS is no alias")
	require.Equal(t, "CARLOS ENRIQUE VALDIVIA ROJAS", byID["9100013"].Name, "FOURTH_NAME is part of the name")
	require.Equal(t, EntryEntity, byID["9200001"].Kind)
}

func TestParseUNListRefusesBrokenAndEmptyFiles(t *testing.T) {
	t.Parallel()
	_, err := ParseUNList([]byte("<CONSOLIDATED_LIST><INDIVIDUALS><INDIVIDUAL>"), "x.xml")
	require.ErrorContains(t, err, "no es un XML válido")
	_, err = ParseUNList([]byte("<CONSOLIDATED_LIST><INDIVIDUALS/></CONSOLIDATED_LIST>"), "x.xml")
	require.ErrorIs(t, err, ErrEmptyList)
	_, err = ParseUNList([]byte("<OTHER_LIST/>"), "x.xml")
	require.Error(t, err)
}

func TestScreenFindsExactAliasAccentlessReorderedAndNearNames(t *testing.T) {
	t.Parallel()
	ix := fixtureIndex(t)
	cases := []struct {
		name   string
		person Person
		want   string
		reason string
	}{
		{"exact", Person{Name: "José Ángel Barragán Quintero"}, "9100001", "coincide"},
		{"accent-less", Person{Name: "JOSE ANGEL BARRAGAN QUINTERO"}, "9100001", "sin distinguir acentos"},
		{"reordered", Person{Name: "Barragán Quintero José Ángel"}, "9100001", "otro orden"},
		{"missing middle name", Person{GivenNames: "José", Surnames: "Barragán Quintero"}, "9100001", "la lista tiene además: angel"},
		{"near", Person{Name: "Jose Angel Barragan Kintero"}, "9100001", "suena igual"},
		{"typo in a long word", Person{Name: "Jose Angel Barragam Quintero"}, "9100001", "casi igual"},
		{"alias", Person{Name: "Marielena Zepeda"}, "9100002", "alias"},
		{"particles dropped", Person{Name: "María Ángeles Zepeda Ochoa"}, "9100002", "coincide"},
		{"cyrillic original", Person{Name: "Viktor Petrovich Sokolov"}, "9100003", "escritura original"},
		{"cyrillic alias", Person{Name: "Viktor Sokolov"}, "9100003", "alias"},
		{"arabic original", Person{Name: "Abd Rahman Yusuf Hashimi"}, "9100004", ""},
		{"arabic skeleton", Person{Name: "Muhammad Saeed Qahtani"}, "9100010", ""},
		{"ukrainian alias", Person{Name: "Elena Kovalenko"}, "9100006", "alias"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := top(ix.Screen(c.person, 0.7))
			require.Equal(t, c.want, got.EntryID, "%+v", ix.Screen(c.person, 0.3))
			require.Equal(t, UNListName, got.ListName)
			require.Equal(t, 1, got.ListVersion)
			if c.reason != "" {
				require.Contains(t, joinReasons(got.Reasons), c.reason)
			}
		})
	}
}

func joinReasons(rs []string) string {
	s := ""
	for _, r := range rs {
		s += r + " | "
	}
	return s
}

func TestScreenDoesNotFindClearlyDifferentPeople(t *testing.T) {
	t.Parallel()
	ix := fixtureIndex(t)
	for _, p := range []Person{
		{Name: "Juan Pérez Barragán"},             // one shared surname
		{Name: "María Fernanda López Ochoa"},      // one shared surname and a common given name
		{Name: "Mario Zepeda"},                    // Mario is not María, nor Marielena
		{Name: "Ana Sofía Quintero Ruiz"},         // one shared surname
		{Name: "Roberto Carlos Gutiérrez Méndez"}, // nothing in common but Carlos
		{Name: "Kim Lee"},                         // a one-word overlap with short names
	} {
		require.Empty(t, ix.Screen(p, 0.7), "%s", p.Name)
	}
}

func TestBirthDateBreaksTies(t *testing.T) {
	t.Parallel()
	ix := fixtureIndex(t)
	name := "José Ángel Barragán Quintero"
	same := top(ix.Screen(Person{Name: name, BirthDate: day("1974-08-12")}, 0))
	unknown := top(ix.Screen(Person{Name: name}, 0))
	otherDay := top(ix.Screen(Person{Name: name, BirthDate: day("1974-01-02")}, 0))
	otherYear := top(ix.Screen(Person{Name: name, BirthDate: day("1990-08-12")}, 0))
	require.Greater(t, same.Score, unknown.Score-0.0001)
	require.Greater(t, unknown.Score, otherDay.Score)
	require.Greater(t, otherDay.Score, otherYear.Score)
	require.Contains(t, joinReasons(same.Reasons), "misma fecha de nacimiento")
	require.Contains(t, joinReasons(unknown.Reasons), "no cuenta")
	require.Contains(t, joinReasons(otherYear.Reasons), "otro año de nacimiento")

	// A year-only or range date: the year inside counts for, outside against.
	in := top(ix.Screen(Person{Name: "Abd al-Rahman Yusuf al-Hashimi", BirthDate: day("1969-03-03")}, 0))
	out := top(ix.Screen(Person{Name: "Abd al-Rahman Yusuf al-Hashimi", BirthDate: day("1985-03-03")}, 0))
	require.Greater(t, in.Score, out.Score)
	require.Contains(t, joinReasons(in.Reasons), "1968–1970")
	require.Empty(t, ix.Screen(Person{Name: "Juan Pérez", BirthDate: day("1974-08-12")}, 0.5), "a date alone finds nobody")
}

func TestScreenForSeesPublicListsAndOnlyItsOwnUploads(t *testing.T) {
	t.Parallel()
	entry := Entry{ID: "1", Kind: EntryPerson, Name: "Rosa Elvira Campos Nava"}
	ix := NewIndex([]ListVersion{
		{ListID: 1, Name: "ONU", Entries: []Entry{{ID: "u", Kind: EntryPerson, Name: "Rosa Elvira Campos Nava"}}},
		{ListID: 2, Name: "LPB socio 7", Owner: 7, Entries: []Entry{entry}},
		{ListID: 3, Name: "LPB socio 8", Owner: 8, Entries: []Entry{entry}},
		{ListID: 4, Name: "LPB socio 7 prueba", Owner: 7, TestMode: true, Entries: []Entry{entry}},
	})
	got := ix.ScreenFor(Person{Name: "Rosa Elvira Campos Nava"}, 0.7, 7, false)
	require.Len(t, got, 2)
	lists := map[int64]bool{got[0].ListID: true, got[1].ListID: true}
	require.Equal(t, map[int64]bool{1: true, 2: true}, lists)
	require.Len(t, ix.Screen(Person{Name: "Rosa Elvira Campos Nava"}, 0.7), 4)
}
