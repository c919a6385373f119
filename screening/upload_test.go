package screening

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"
)

var uifMapping = ColumnMapping{Name: "Nombre completo", BirthDate: "Fecha de nacimiento", Aliases: "Alias", Identifier: "RFC/CURP", Reference: "Folio"}

func TestReadUploadCSVWithBOMSemicolonsAndOddColumns(t *testing.T) {
	t.Parallel()
	csv := "\xef\xbb\xbfFolio;Nombre completo;Observaciones;FECHA DE NACIMIENTO;alias;RFC/CURP;;Columna extra\n" +
		"LPB-1;Rosa Elvira Campos Nava;oficio 110/2025;03/05/1979;La Güera | Rosy;CANR790503MDFMVS09;;x\n" +
		";;;;;;;\n" +
		"LPB-2;\"Núñez, Héctor\";sin fecha;;;;\n" +
		"LPB-3;Ramón Ortega Lira;;1966\n"
	l, err := ReadUpload([]byte(csv), "/tmp/LPB noviembre.csv", "Lista de Personas Bloqueadas", uifMapping)
	require.NoError(t, err)
	require.Equal(t, KindUIFUpload, l.Kind)
	require.Equal(t, "LPB noviembre.csv", l.Source)
	require.Len(t, l.Entries, 3, "the blank row is skipped")
	rosa := l.Entries[0]
	require.Equal(t, "LPB-1", rosa.ID)
	require.Equal(t, "Rosa Elvira Campos Nava", rosa.Name)
	require.Equal(t, []BirthDate{{Date: "1979-05-03"}}, rosa.BirthDates, "dd/mm/yyyy")
	require.Equal(t, []Alias{{Name: "La Güera"}, {Name: "Rosy"}}, rosa.Aliases)
	require.Equal(t, []string{"CANR790503MDFMVS09"}, rosa.Identifiers)
	require.Equal(t, []BirthDate{{Year: 1966}}, l.Entries[2].BirthDates)

	ix := NewIndex([]ListVersion{{ListID: 5, Name: l.Name, Owner: 7, Version: 1, Entries: l.Entries}})
	got := top(ix.Screen(Person{Name: "Héctor Núñez"}, 0.7))
	require.Equal(t, "LPB-2", got.EntryID, "a 'Surname, Given' name is found reordered")
	got = top(ix.Screen(Person{Name: "Rosy Campos"}, 0.5))
	require.Equal(t, "LPB-1", got.EntryID)
}

func TestReadUploadCSVInWindows1252AndCommas(t *testing.T) {
	t.Parallel()
	// "Peña" in Windows-1252, as Excel saves a CSV in Mexico.
	csv := []byte("Nombres,Apellidos,Nacimiento\nJos\xe9 Luis,Pe\xf1a Soto,1/2/1980\n")
	l, err := ReadUpload(csv, "lista.csv", "LPB", ColumnMapping{GivenNames: "nombres", Surnames: "apellidos", BirthDate: "nacimiento"})
	require.NoError(t, err)
	require.Equal(t, "José Luis Peña Soto", l.Entries[0].Name)
	require.Equal(t, "Peña Soto", l.Entries[0].Surnames)
	require.Equal(t, []BirthDate{{Date: "1980-02-01"}}, l.Entries[0].BirthDates)
}

func TestReadUploadXLSX(t *testing.T) {
	t.Parallel()
	f := excelize.NewFile()
	sheet := f.GetSheetName(0)
	require.NoError(t, f.SetSheetRow(sheet, "A1", &[]any{"Núm.", "NOMBRE COMPLETO", "Fecha de Nacimiento", "Alias", "Notas"}))
	require.NoError(t, f.SetSheetRow(sheet, "A2", &[]any{1, "Gerardo Iván Salcedo Mora", "12/09/1988", "El Contador", "—"}))
	require.NoError(t, f.SetSheetRow(sheet, "A3", &[]any{2, "Lucía Fernanda Ibarra Treviño", nil, nil}))
	// A real date cell: Excel keeps a serial number and a display format.
	require.NoError(t, f.SetCellValue(sheet, "C3", day("1990-07-15")))
	var buf bytes.Buffer
	require.NoError(t, f.Write(&buf))

	l, err := ReadUpload(buf.Bytes(), "LPB.xlsx", "LPB", ColumnMapping{Name: "Nombre completo", BirthDate: "fecha de nacimiento", Aliases: "alias"})
	require.NoError(t, err)
	require.Len(t, l.Entries, 2)
	require.Equal(t, "Gerardo Iván Salcedo Mora", l.Entries[0].Name)
	require.Equal(t, []BirthDate{{Date: "1988-09-12"}}, l.Entries[0].BirthDates)
	require.Equal(t, []Alias{{Name: "El Contador"}}, l.Entries[0].Aliases)
	require.Equal(t, []BirthDate{{Date: "1990-07-15"}}, l.Entries[1].BirthDates, "a date cell read from its serial")
	require.Equal(t, "fila 3", l.Entries[1].ID)
}

func TestMalformedUploadsAreRefusedInSpanish(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		data string
		file string
		m    ColumnMapping
		want string
	}{
		{"no mapping", "a,b\n", "x.csv", ColumnMapping{}, "indique qué columna tiene el nombre"},
		{"missing column", "Nombre;Fecha\nAna;01/01/1990\n", "x.csv", ColumnMapping{Name: "Nombre completo"}, "fila 1, columna «Nombre completo»: esa columna no está en el encabezado"},
		{"bad date", "Nombre;Fecha\nAna Ruiz;01/01/1990\nLuis Mora;31/31/1980\n", "x.csv", ColumnMapping{Name: "Nombre", BirthDate: "Fecha"}, "fila 3, columna «Fecha»: «31/31/1980» no es una fecha"},
		{"no name", "Nombre;Fecha\nAna Ruiz;\n;01/01/1990\n", "x.csv", ColumnMapping{Name: "Nombre", BirthDate: "Fecha"}, "fila 3, columna «Nombre»: la fila no tiene nombre"},
		{"quotes", "Nombre,Fecha\n\"Ana Ruiz,01/01/1990\nx\"y\"z,1\n", "x.csv", ColumnMapping{Name: "Nombre"}, "el CSV está mal formado"},
		{"header only", "Nombre\n", "x.csv", ColumnMapping{Name: "Nombre"}, "no tiene ninguna fila con nombre"},
		{"empty", "", "x.csv", ColumnMapping{Name: "Nombre"}, "el archivo está vacío"},
		{"not xlsx", "PK\x03\x04garbage", "x.xlsx", ColumnMapping{Name: "Nombre"}, "no es un libro de Excel (XLSX) válido"},
		{"binary", "Nombre\n\x00\x01\x02", "x.csv", ColumnMapping{Name: "Nombre"}, "no es texto"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadUpload([]byte(c.data), c.file, "LPB", c.m)
			var ue *UploadError
			require.True(t, errors.As(err, &ue), "%v", err)
			require.Contains(t, err.Error(), c.want)
		})
	}
}
