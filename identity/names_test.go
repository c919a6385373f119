package identity

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func fields(given, first, second string) DocumentName {
	return DocumentName{GivenNames: given, FirstSurname: first, SecondSurname: second}
}

func full(name string) DocumentName { return DocumentName{FullName: name} }

func TestCompareNames(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		typed string
		doc   DocumentName
		want  Outcome
		why   Reason // a reason that must be reported ("" for none required)
	}{
		// Same name, written differently.
		{"identical", "María López Hernández", fields("MARÍA", "LÓPEZ", "HERNÁNDEZ"), Match, ""},
		{"upper case typed", "MARIA LOPEZ HERNANDEZ", fields("MARÍA", "LÓPEZ", "HERNÁNDEZ"), Match, ""},
		{"accents typed, none on ID", "José Martínez Pérez", fields("JOSE", "MARTINEZ", "PEREZ"), Match, ""},
		{"no accents typed", "Jose Martinez Perez", fields("JOSÉ", "MARTÍNEZ", "PÉREZ"), Match, ""},
		{"ñ typed as n", "Jesus Nunez Ibarra", fields("JESÚS", "NÚÑEZ", "IBARRA"), Match, ""},
		{"ñ on both", "Iñaki Peña Muñoz", fields("IÑAKI", "PEÑA", "MUÑOZ"), Match, ""},
		{"ñ on ID as N", "Begoña Ordóñez Saldaña", fields("BEGONA", "ORDONEZ", "SALDANA"), Match, ""},
		{"lower case typed", "ana ruiz soto", fields("ANA", "RUIZ", "SOTO"), Match, ""},
		{"extra spaces", "  Luis   Ángel  Torres  Vega ", fields("LUIS ÁNGEL", "TORRES", "VEGA"), Match, ""},
		{"diaeresis", "Agüero Güemes Raúl", fields("RAUL", "AGUERO", "GUEMES"), Match, ""},
		{"typed surnames first", "López Hernández María José", fields("MARÍA JOSÉ", "LÓPEZ", "HERNÁNDEZ"), Match, ""},
		{"hyphenated typed", "Ana Pérez-Gil Romero", fields("ANA", "PÉREZ GIL", "ROMERO"), Match, ""},
		{"apostrophe", "Carlos O'Farrill Ríos", fields("CARLOS", "O FARRILL", "RIOS"), Match, ""},

		// Parts left out.
		{"second given name missing", "Ana Ruiz Soto", fields("ANA MARÍA", "RUIZ", "SOTO"), Match, ""},
		{"second surname missing", "Ana María Ruiz", fields("ANA MARÍA", "RUIZ", "SOTO"), Match, ""},
		{"both seconds missing", "Ana Ruiz", fields("ANA MARÍA", "RUIZ", "SOTO"), Match, ""},
		{"uses second given name", "José Ramírez Cruz", fields("JUAN JOSÉ", "RAMÍREZ", "CRUZ"), Match, ""},
		{"one surname only on ID", "Sofía Delgado", fields("SOFÍA", "DELGADO", ""), Match, ""},
		{"first surname missing", "María Hernández", fields("MARÍA", "LÓPEZ", "HERNÁNDEZ"), Near, ReasonFirstSurnameAbsent},
		{"only given names", "María José", fields("MARÍA JOSÉ", "LÓPEZ", "HERNÁNDEZ"), Mismatch, ReasonSurnameAbsent},
		{"only surnames", "López Hernández", fields("MARÍA", "LÓPEZ", "HERNÁNDEZ"), Mismatch, ReasonGivenNameAbsent},
		{"both surnames in one field", "Ana Ruiz", fields("ANA", "RUIZ SOTO", ""), Match, ""},
		{"both surnames in one field, second only", "Ana Soto", fields("ANA", "RUIZ SOTO", ""), Near, ReasonFirstSurnameAbsent},

		// Particles and compound surnames.
		{"de la with particles", "Juan de la Garza Treviño", fields("JUAN", "DE LA GARZA", "TREVIÑO"), Match, ""},
		{"de la dropped", "Juan Garza Treviño", fields("JUAN", "DE LA GARZA", "TREVIÑO"), Match, ""},
		{"de la capitalised", "Juan De La Garza", fields("JUAN", "DE LA GARZA", "TREVIÑO"), Match, ""},
		{"la missing from de la", "Juan de Garza", fields("JUAN", "DE LA GARZA", "TREVIÑO"), Near, ReasonParticle},
		{"de la written together", "Juan Delagarza", fields("JUAN", "DE LA GARZA", ""), Near, ReasonJoined},
		{"compound surname whole", "Ana Ruiz de Velasco Soto", fields("ANA", "RUIZ DE VELASCO", "SOTO"), Match, ""},
		{"compound surname without de", "Ana Ruiz Velasco", fields("ANA", "RUIZ DE VELASCO", "SOTO"), Match, ""},
		{"compound surname first word only", "Ana Ruiz", fields("ANA", "RUIZ DE VELASCO", "SOTO"), Match, ""},
		{"compound surname second word only", "Ana Velasco Soto", fields("ANA", "RUIZ DE VELASCO", "SOTO"), Near, ReasonFirstSurnameAbsent},
		{"compound written together", "Ana Ruizdevelasco", fields("ANA", "RUIZ DE VELASCO", ""), Near, ReasonJoined},
		{"del in given name", "María del Carmen Salinas", fields("MARÍA DEL CARMEN", "SALINAS", "OROZCO"), Match, ""},
		{"de los in given name dropped", "María Ángeles Fuentes", fields("MARÍA DE LOS ÁNGELES", "FUENTES", "MORA"), Match, ""},
		{"particle typed, not on ID", "María de Lourdes Campos", fields("MARÍA LOURDES", "CAMPOS", "NAVA"), Near, ReasonParticle},
		{"y between surnames", "Pedro Ortega y Gasset", fields("PEDRO", "ORTEGA", "Y GASSET"), Match, ""},
		{"y dropped", "Pedro Ortega Gasset", fields("PEDRO", "ORTEGA", "Y GASSET"), Match, ""},
		{"van", "Pieter van der Berg López", fields("PIETER", "VAN DER BERG", "LÓPEZ"), Match, ""},
		{"von dropped", "Klaus Humboldt Ríos", fields("KLAUS", "VON HUMBOLDT", "RÍOS"), Match, ""},
		{"trailing particle", "Juan Garza de", fields("JUAN", "GARZA", "LEAL"), Near, ReasonParticle},

		// Written together or apart.
		{"Maricarmen apart", "Mari Carmen Ibarra", fields("MARICARMEN", "IBARRA", "SOLÍS"), Near, ReasonJoined},
		{"Mariajose together", "Mariajosé Téllez", fields("MARÍA JOSÉ", "TÉLLEZ", "GIRÓN"), Near, ReasonJoined},

		// One letter off (OCR or typing) in a long word.
		{"s for z in Hernández", "María López Hernandes", fields("MARÍA", "LÓPEZ", "HERNÁNDEZ"), Near, ReasonTypo},
		{"transposed letters", "Guadalupe Hernadnez Ruiz", fields("GUADALUPE", "HERNÁNDEZ", "RUIZ"), Near, ReasonTypo},
		{"OCR 0 for O on the ID", "Rodrigo González Ibarra", fields("RODRIGO", "G0NZALEZ", "IBARRA"), Near, ReasonTypo},
		{"missing letter in given name", "Alejandra Sánchez Mora", fields("ALEJANDRA", "SÁNCHEZ", "MORA"), Match, ""},
		{"missing letter long given", "Alejadra Sánchez Mora", fields("ALEJANDRA", "SÁNCHEZ", "MORA"), Near, ReasonTypo},
		{"extra letter", "Fernando Gutiérrrez Lara", fields("FERNANDO", "GUTIÉRREZ", "LARA"), Near, ReasonTypo},
		{"Gonzales for Gonzalez", "Rocío Gonzales Pineda", fields("ROCÍO", "GONZÁLEZ", "PINEDA"), Near, ReasonTypo},
		{"OCR I for L", "Guillermo Castiilo Reyes", fields("GUILLERMO", "CASTILLO", "REYES"), Near, ReasonTypo},
		{"one letter in short word is not a typo", "Mario López Hernández", fields("MARÍA", "LÓPEZ", "HERNÁNDEZ"), Mismatch, ReasonNotOnDocument},
		{"Lopes short word", "María Lopes Hernández", fields("MARÍA", "LÓPEZ", "HERNÁNDEZ"), Mismatch, ReasonNotOnDocument},
		{"two letters off", "María López Hernandis", fields("MARÍA", "LÓPEZ", "HERNÁNDEZ"), Mismatch, ReasonNotOnDocument},

		// Clearly different people.
		{"different person", "María López Hernández", fields("PEDRO", "GARCÍA", "RUIZ"), Mismatch, ReasonNotOnDocument},
		{"owner's name, fraudster's ID", "Roberto Treviño Garza", fields("LUIS", "MEDINA", "CORTÉS"), Mismatch, ReasonNotOnDocument},
		{"sibling: same surnames", "Pedro López Hernández", fields("MARÍA", "LÓPEZ", "HERNÁNDEZ"), Mismatch, ReasonNotOnDocument},
		{"married surname added", "María López de García", fields("MARÍA", "LÓPEZ", "HERNÁNDEZ"), Mismatch, ReasonNotOnDocument},
		{"nickname", "Lupita Reyes Ortiz", fields("GUADALUPE", "REYES", "ORTIZ"), Mismatch, ReasonNotOnDocument},
		{"nickname Pepe", "Pepe Ramírez Cruz", fields("JOSÉ", "RAMÍREZ", "CRUZ"), Mismatch, ReasonNotOnDocument},
		{"abbreviated Ma.", "Ma. Elena Vargas", fields("MARÍA ELENA", "VARGAS", "PAZ"), Mismatch, ReasonNotOnDocument},
		{"extra given name", "Juan Carlos Pérez Gómez", fields("JUAN", "PÉREZ", "GÓMEZ"), Mismatch, ReasonNotOnDocument},
		{"same given, other surnames", "Ana Ruiz Soto", fields("ANA", "MARTÍNEZ", "LUNA"), Mismatch, ReasonNotOnDocument},
		{"empty typed", "", fields("ANA", "RUIZ", "SOTO"), Mismatch, ReasonEmpty},
		{"empty document", "Ana Ruiz", DocumentName{}, Mismatch, ReasonEmpty},
		{"only punctuation typed", "-- . --", fields("ANA", "RUIZ", "SOTO"), Mismatch, ReasonEmpty},

		// Full name only.
		{"INE order, surnames first", "Ana María Ruiz Soto", full("RUIZ SOTO ANA MARÍA"), Match, ""},
		{"full name given first", "María José López Hernández", full("MARÍA JOSÉ LÓPEZ HERNÁNDEZ"), Match, ""},
		{"INE order, second surname missing", "Ana Ruiz", full("RUIZ SOTO ANA MARIA"), Match, ""},
		{"INE order with de la", "Juan de la Garza", full("DE LA GARZA TREVIÑO JUAN"), Match, ""},
		{"full name, typo", "Ana María Ruiz Sotomayer", full("RUIZ SOTOMAYOR ANA MARÍA"), Near, ReasonTypo},
		{"full name, different person", "Ana María Ruiz Soto", full("GARCÍA LUNA PEDRO"), Mismatch, ReasonNotOnDocument},
		{"full name, two words", "Ana Ruiz", full("ANA RUIZ"), Match, ""},
	}
	require.GreaterOrEqual(t, len(cases), 60)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := CompareNames(tc.typed, tc.doc)
			require.Equal(t, tc.want, got.Outcome, "%q vs %+v: reasons %v, words %+v", tc.typed, tc.doc, got.Reasons, got.Words)
			if tc.why != "" {
				require.Contains(t, got.Reasons, tc.why)
			}
			if tc.want == Match {
				require.Empty(t, got.Reasons)
			}
			require.GreaterOrEqual(t, got.Score, 0.0)
			require.LessOrEqual(t, got.Score, 1.0)
		})
	}
}

func TestCompareNamesReportsTheScoresOfEachWord(t *testing.T) {
	t.Parallel()
	got := CompareNames("María López Hernandes", fields("MARÍA", "LÓPEZ", "HERNÁNDEZ"))
	require.Equal(t, Near, got.Outcome)
	require.Len(t, got.Words, 3)
	require.Equal(t, WordResult{Typed: "maria", Document: "maria", Part: PartGiven, How: "exact", JaroWinkler: 1, Distance: 0}, got.Words[0])
	require.Equal(t, PartFirstSurname, got.Words[1].Part)
	typo := got.Words[2]
	require.Equal(t, "hernandes", typo.Typed)
	require.Equal(t, "hernandez", typo.Document)
	require.Equal(t, PartSecondSurname, typo.Part)
	require.Equal(t, "typo", typo.How)
	require.Equal(t, 1, typo.Distance)
	require.Greater(t, typo.JaroWinkler, 0.9)
	require.Less(t, typo.JaroWinkler, 1.0)
	require.Less(t, got.Score, 1.0)
	require.Equal(t, ReadingFields, got.Reading)

	absent := CompareNames("Pedro López", fields("MARÍA", "LÓPEZ", ""))
	require.Equal(t, "absent", absent.Words[0].How)
	require.Equal(t, PartNone, absent.Words[0].Part)
	require.NotEmpty(t, absent.Words[0].Document, "the closest document word is shown beside an absent one")
}

func TestCompareNamesReadsTheINEOrder(t *testing.T) {
	t.Parallel()
	got := CompareNames("Ana María Ruiz Soto", full("RUIZ SOTO ANA MARÍA"))
	require.Equal(t, ReadingSurnamesFirst, got.Reading)
	require.Equal(t, DocumentName{FullName: "RUIZ SOTO ANA MARÍA", GivenNames: "ANA MARÍA", FirstSurname: "RUIZ", SecondSurname: "SOTO"}, got.Document)
	require.Equal(t, "Ana María Ruiz Soto", got.Document.Display())

	got = CompareNames("Ana María Ruiz Soto", full("ANA MARÍA RUIZ SOTO"))
	require.Equal(t, ReadingGivenFirst, got.Reading)
	require.Equal(t, "Ana María Ruiz Soto", got.Document.Display())

	got = CompareNames("Juan de la Garza", full("DE LA GARZA TREVIÑO JUAN"))
	require.Equal(t, Match, got.Outcome)
	require.Equal(t, "DE LA GARZA", got.Document.FirstSurname)
	require.Equal(t, "Juan de la Garza Treviño", got.Document.Display())

	fieldsDoc := fields("ANA MARÍA", "RUIZ", "SOTO")
	require.Equal(t, fieldsDoc, CompareNames("Ana Ruiz", fieldsDoc).Document)
}

func TestEveryReasonHasSpanishText(t *testing.T) {
	t.Parallel()
	for _, r := range []Reason{ReasonTypo, ReasonJoined, ReasonParticle, ReasonFirstSurnameAbsent, ReasonGivenNameAbsent, ReasonSurnameAbsent, ReasonNotOnDocument, ReasonEmpty} {
		require.NotEmpty(t, r.Text(), r)
		require.NotEqual(t, string(r), r.Text())
	}
}

func TestFold(t *testing.T) {
	t.Parallel()
	require.Equal(t, "nunez pena", Fold("NÚÑEZ  PEÑA"))
	require.Equal(t, "perez gil o farrill", Fold("Pérez-Gil O'Farrill"))
	require.Equal(t, "aguero", Fold("Agüero"))
}

func TestProperName(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"MARÍA JOSÉ LÓPEZ HERNÁNDEZ": "María José López Hernández",
		"JUAN DE LA GARZA":           "Juan de la Garza",
		"ana ruiz de velasco soto":   "Ana Ruiz de Velasco Soto",
		"DE LA GARZA TREVIÑO JUAN":   "De la Garza Treviño Juan",
		"MARÍA DEL CARMEN ÑUÑEZ":     "María del Carmen Ñuñez",
		"PEDRO ORTEGA Y GASSET":      "Pedro Ortega y Gasset",
		"CARLOS O'FARRILL PÉREZ-GIL": "Carlos O'Farrill Pérez-Gil",
		"  IÑAKI   VON  HUMBOLDT ":   "Iñaki von Humboldt",
		"MA. GUADALUPE":              "Ma. Guadalupe",
		"":                           "",
	}
	for in, want := range cases {
		require.Equal(t, want, ProperName(in), in)
	}
}

func TestDocumentNameDisplay(t *testing.T) {
	t.Parallel()
	require.Equal(t, "María José López Hernández", fields("MARÍA JOSÉ", "LÓPEZ", "HERNÁNDEZ").Display())
	require.Equal(t, "Juan de la Garza", fields("JUAN", "DE LA GARZA", "").Display())
	require.Equal(t, "Ruiz Soto Ana María", full("RUIZ SOTO ANA MARÍA").Display())
}
