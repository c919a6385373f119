package amlaviso_test

import (
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/amlaviso"
)

func read(t *testing.T, a amlaviso.Aviso) []map[string]string {
	t.Helper()
	b, err := amlaviso.CSV(a)
	require.NoError(t, err)
	rows, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	require.NoError(t, err)
	require.Equal(t, amlaviso.Columns, rows[0])
	out := []map[string]string{}
	for _, r := range rows[1:] {
		m := map[string]string{}
		for i, c := range amlaviso.Columns {
			m[c] = r[i]
		}
		out = append(out, m)
	}
	return out
}

func TestAMonthWithoutOperationsIsOneRowWithTheHeaderFieldsOnly(t *testing.T) {
	t.Parallel()
	rows := read(t, amlaviso.Aviso{Reference: "PS-AVISO-3", Kind: "sin_operaciones",
		Period: time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC), DueAt: time.Date(2026, 1, 17, 23, 59, 59, 0, time.FixedZone("CST", -6*3600))})
	require.Len(t, rows, 1)
	require.Equal(t, "202512", rows[0]["mes_reportado"])
	require.Equal(t, "2026-01-17T23:59:59-06:00", rows[0]["fecha_limite"])
	require.Equal(t, "100", rows[0]["tipo_alerta"])
	require.Empty(t, rows[0]["nombre"])
	require.Empty(t, rows[0]["clave_actividad"])
	require.Empty(t, rows[0]["pep"], "no declaration, no yes/no")
}

func TestPeopleAreWrittenInCapitalsWithoutAccentsKeepingÑ(t *testing.T) {
	t.Parallel()
	rows := read(t, amlaviso.Aviso{Kind: "umbral", Operation: &amlaviso.Operation{ID: "op_1", Kind: "arrendamiento", KindText: "Arrendamiento",
		Date: time.Date(2026, 3, 5, 0, 0, 0, 0, time.UTC), BusinessRole: "arrendador", Amount: "400000.00", Cash: "0.00"},
		People: []amlaviso.Person{
			{Role: "arrendatario", GivenNames: "María José", FirstSurname: "Peña", SecondName: "Álvarez", Nationality: "MEX"},
			{Role: "otro", FullName: "josé  núñez"},
		}})
	require.Len(t, rows, 2)
	require.Equal(t, "MARIA JOSE", rows[0]["nombre"])
	require.Equal(t, "PEÑA", rows[0]["apellido_paterno"])
	require.Equal(t, "ALVAREZ", rows[0]["apellido_materno"])
	require.Equal(t, "ARI", rows[0]["clave_actividad"])
	require.Equal(t, "202603", rows[0]["mes_reportado"])
	require.Equal(t, "JOSE NUÑEZ", rows[1]["nombre"], "a typed name goes whole in nombre")
	require.Equal(t, "OTRO", rows[1]["figura_cliente"])
}
