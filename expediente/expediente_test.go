package expediente_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/aml"
	"github.com/perfilseguro/perfilseguro/expediente"
)

// utc builds an instant; Mexico City is UTC−6 all year since 2022, so 18:30 UTC is 12:30 there.
func utc(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, time.UTC)
}

// realistic is a sale brokered by CasaLista for María José, with two signed declarations, two
// lists (one discarded candidate), a threshold aviso and 60 audit lines (several pages).
func realistic() expediente.File {
	filed := utc(2026, time.April, 10, 17, 5)
	f := expediente.File{
		Business: expediente.Business{Name: "CasaLista Bienes Raíces, S.A. de C.V.", RFC: "CBR100315AB1", PartnerID: 42},
		Person: expediente.Person{
			DocumentName: "MARÍA JOSÉ ÑÚÑEZ PEÑA",
			GivenNames:   "María José",
			Surnames:     "Ñúñez Peña",
			BirthDate:    expediente.Date{Year: 1987, Month: time.March, Day: 9},
			Sex:          "M",
			Nationality:  "Mexicana",
			CURP:         "NUPM870309MDF••••••",
			Document: expediente.IDDoc{Type: "Credencial para votar", Number: "•••••••••0427",
				Issuer: "INE", Expiry: expediente.Date{Year: 2031, Month: time.December, Day: 31}},
		},
		Verification: expediente.Verification{
			At:        utc(2026, time.March, 2, 16, 40),
			Provider:  "Didit",
			FaceMatch: expediente.Check{Passed: true, Score: 97.4},
			Liveness:  expediente.Check{Passed: true, Score: 99},
			Document:  expediente.Check{Passed: true, Detail: "Hologramas y zona de lectura mecánica válidos"},
			Registries: []expediente.RegistryCheck{
				{Registry: "RENAPO", Field: "CURP", Matched: true},
				{Registry: "RENAPO", Field: "Fecha de nacimiento", Matched: true},
				{Registry: "INE", Field: "Vigencia de la credencial", Matched: true, Detail: "Vigente en la Lista Nominal"},
			},
			NameMatch: expediente.NameMatch{Verdict: "Coincide",
				Findings: []string{"Acentos distintos: «Nunez» en el registro, «Ñúñez» en el documento"}},
		},
		Declarations: []expediente.Declaration{
			{Version: 1, SignedAt: utc(2026, time.March, 2, 16, 55), Method: expediente.MethodPasskey,
				TextSHA256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
				Answers: expediente.Answers{Occupation: "Médica cirujana", RFC: "NUPM870309QX5",
					Address: "Calle Ángel Urraza 1234, int. 5, Col. del Valle, Benito Juárez, 03100 Ciudad de México"}},
			{Version: 2, SignedAt: utc(2026, time.March, 20, 18, 30), Method: expediente.MethodCode,
				TextSHA256: "60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752",
				Answers: expediente.Answers{Occupation: "Médica cirujana; socia de un consultorio privado", RFC: "NUPM870309QX5",
					Address:        "Av. Insurgentes Sur 1602, piso 4, Col. Crédito Constructor, Benito Juárez, 03940 Ciudad de México",
					ForBeneficiary: true,
					Beneficiary: &expediente.Beneficiary{Name: "Íñigo Peña Ibáñez", BirthDate: expediente.Date{Year: 1955, Month: time.July, Day: 1},
						CURPOrRFC: "PEII550701HDFXXX09", Relationship: "Padre"},
					PEP: true, PEPPosition: "Su padre fue subdirector en la Secretaría de Salud (2012–2018)"}},
		},
		Screenings: []expediente.Screening{
			{ListName: "Lista consolidada del Consejo de Seguridad de la ONU", ListVersion: "2026-03-28 · sha256 3a7bd3e2",
				ImportedAt: utc(2026, time.March, 28, 6, 0), CheckedAt: utc(2026, time.April, 1, 15, 0)},
			{ListName: "Lista de Personas Bloqueadas (UIF) — carga de CasaLista", ListVersion: "versión 7 del 15/03/2026",
				ImportedAt: utc(2026, time.March, 15, 19, 12), CheckedAt: utc(2026, time.April, 1, 15, 0),
				Candidates: []expediente.Candidate{{
					Name: "MARIA JOSEFA NUNEZ PENA", Score: 0.82,
					Reasons: []string{"nombre sin acentos casi igual", "otro año de nacimiento (1962)"},
					Resolution: &expediente.Resolution{Decision: expediente.Discarded, By: "Ana López (cumplimiento)",
						At: utc(2026, time.April, 1, 16, 20), Reason: "Otra persona: nació en 1962 y su CURP es distinta."},
				}}},
		},
		Operation: expediente.Operation{
			Kind: aml.Intermediacion, Amount: 985_000_000, Date: expediente.Date{Year: 2026, Month: time.April, Day: 3},
			Reference: "Depto. 502, Av. Ámsterdam 210, Hipódromo Condesa", Role: "Compradora",
			Thresholds: expediente.Thresholds{UMAYear: 2026, UMADaily: 11731, Identification: 94_141_275, Aviso: 94_141_275,
				Identify: true, NeedsAviso: true, Source: "LFPIORPI art. 17 fr. V (DOF 16/07/2025); UMA de INEGI"},
		},
		Risk: expediente.Risk{Level: expediente.Medium, Factors: []expediente.Factor{
			{Description: "Persona políticamente expuesta (familiar)", Weight: 30},
			{Description: "Actúa por cuenta de un beneficiario controlador", Weight: 20},
		}},
		Avisos: []expediente.Aviso{{Kind: expediente.AvisoThreshold, Due: utc(2026, time.May, 18, 5, 59),
			Filed: &filed, Acknowledgement: "SPPLD-2026-0412-778812"}},
		GeneratedAt:    utc(2026, time.April, 12, 1, 15), // 11/04/2026 19:15 in Mexico City
		RetentionUntil: expediente.Date{Year: 2036, Month: time.April, Day: 3},
	}
	start := utc(2026, time.March, 2, 16, 0)
	for i := range 60 {
		f.Audit = append(f.Audit, expediente.AuditLine{
			At:     start.Add(time.Duration(i) * 7 * time.Hour),
			Actor:  "Ana López (cumplimiento)",
			Action: fmt.Sprintf("Acción de bitácora número %02d: consultó el expediente y revisó la declaración", i+1),
		})
	}
	return f
}

// pdfText runs pdftotext (poppler-utils: scripts/ensure-tools.sh --test installs it) on pdf.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	require.NoError(t, err, "pdftotext is missing: run scripts/ensure-tools.sh --test (Debian's poppler-utils)")
	path := filepath.Join(t.TempDir(), "expediente.pdf")
	require.NoError(t, os.WriteFile(path, pdf, 0o600))
	out, err := exec.Command(bin, "-layout", "-enc", "UTF-8", path, "-").CombinedOutput()
	require.NoError(t, err, "pdftotext: %s", out)
	return string(out)
}

func TestThePDFHoldsTheFileInSpanishAcrossNumberedPages(t *testing.T) {
	t.Parallel()
	f := realistic()
	pdf, err := expediente.PDF(f)
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(pdf, []byte("%PDF-")))
	text := pdfText(t, pdf)
	flat := strings.Join(strings.Fields(text), " ") // wrapped lines and columns joined

	require.Contains(t, text, expediente.Title)
	for _, section := range []string{"Cliente", "Identidad verificada y cómo se verificó", "Declaraciones firmadas",
		"Listas consultadas", "Operación y umbrales", "Riesgo", "Avisos", "Bitácora"} {
		require.Contains(t, text, section)
	}
	require.Contains(t, text, "MARÍA JOSÉ ÑÚÑEZ PEÑA")
	require.Contains(t, text, "Ñúñez Peña")
	require.Contains(t, flat, "«Nunez»", "guillemets survive the font")
	require.Contains(t, text, "¿Requiere aviso?")
	for _, s := range f.Screenings {
		require.Contains(t, flat, s.ListName)
		require.Contains(t, flat, s.ListVersion)
	}
	require.Contains(t, flat, "Sin coincidencias")
	require.Regexp(t, `Descartada por Ana López[\s\S]*\(cumplimiento\) el 01/04/2026 10:20`, text, "a table cell wraps")
	require.Contains(t, flat, "Otra persona: nació en 1962")
	require.Contains(t, flat, "Versión 1, firmada el 02/03/2026 10:55")
	require.Contains(t, flat, "Versión 2, firmada el 20/03/2026 12:30")
	require.Contains(t, flat, "Llave de acceso (passkey)")
	require.Contains(t, flat, "Código de un solo uso")
	require.Contains(t, flat, "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"[:40])
	require.Contains(t, flat, "$9,850,000.00")
	require.Contains(t, flat, "2026: $117.31 diarios")
	require.Contains(t, flat, "Fecha de nacimiento 09/03/1987", "a calendar day is not shifted by the time zone")
	for i := range 60 {
		require.Contains(t, flat, fmt.Sprintf("Acción de bitácora número %02d", i+1))
	}
	require.Contains(t, flat, "02/03/2026 10:00", "the first audit line, in Mexico City time (16:00 UTC)")

	pages := strings.Count(text, "\f")
	require.GreaterOrEqual(t, pages, 3, "60 audit lines take several pages")
	for p := 1; p <= pages; p++ {
		require.Contains(t, text, fmt.Sprintf("Página %d de %d", p, pages))
	}
	require.Equal(t, pages, strings.Count(flat, "Conservar hasta el 03/04/2036"), "the retention date on every page")
	require.Equal(t, pages, strings.Count(flat, "Generado el 11/04/2026 19:15"), "generated in Mexico City time")

	if os.Getenv("EXPEDIENTE_SCREENSHOT") == "1" {
		screenshot(t, pdf)
	}
}

// screenshot writes the first page as e2e/screenshots/expediente-page1.png (pdftoppm).
func screenshot(t *testing.T, pdf []byte) {
	dir := t.TempDir()
	in := filepath.Join(dir, "expediente.pdf")
	require.NoError(t, os.WriteFile(in, pdf, 0o600))
	out, err := exec.Command("pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile", in,
		filepath.Join(dir, "page1")).CombinedOutput()
	require.NoError(t, err, "pdftoppm: %s", out)
	png, err := os.ReadFile(filepath.Join(dir, "page1.png"))
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll("../e2e/screenshots", 0o755))
	require.NoError(t, os.WriteFile("../e2e/screenshots/expediente-page1.png", png, 0o644))
}

func TestALongTableRepeatsItsHeaderOnEveryPage(t *testing.T) {
	t.Parallel()
	f := realistic()
	for i := range 200 { // a file audited for years
		f.Audit = append(f.Audit, expediente.AuditLine{At: f.GeneratedAt, Actor: "Sistema",
			Action: fmt.Sprintf("Re-escrutinio %03d tras una nueva versión de la lista, con una explicación larga que no cabe en una sola línea de la columna y debe partirse", i)})
	}
	pdf, err := expediente.PDF(f)
	require.NoError(t, err)
	text := pdfText(t, pdf)
	pages := strings.Count(text, "\f")
	require.Greater(t, pages, 6)
	// The audit table starts on some page and its header repeats on every page after it.
	perPage := strings.Split(text, "\f")
	first := -1
	for i, p := range perPage {
		if strings.Contains(p, "8. Bitácora") {
			first = i
		}
	}
	require.NotEqual(t, -1, first)
	for i := first; i < pages; i++ {
		require.Regexp(t, `Fecha y hora\s+Quién\s+Qué`, perPage[i], "page %d", i+1)
	}
	require.Contains(t, strings.Join(strings.Fields(text), " "), "Re-escrutinio 199 tras una nueva versión de la lista, con una explicación larga que no cabe en una sola línea de la columna y debe partirse")
}

func TestTheJSONRoundTrips(t *testing.T) {
	t.Parallel()
	f := realistic()
	b, err := expediente.JSON(f)
	require.NoError(t, err)
	var back expediente.File
	require.NoError(t, json.Unmarshal(b, &back))
	// time.Time keeps its zone pointer; compare the instants through a second encoding.
	again, err := expediente.JSON(back)
	require.NoError(t, err)
	require.Equal(t, string(b), string(again))
	require.Equal(t, f.Person, back.Person)
	require.Equal(t, f.Declarations[1].Answers, back.Declarations[1].Answers)
	require.True(t, f.Audit[59].At.Equal(back.Audit[59].At))

	// The stable names the export promises (doc.go).
	s := string(b)
	for _, name := range []string{`"documentName": "MARÍA JOSÉ ÑÚÑEZ PEÑA"`, `"birthDate": "1987-03-09"`,
		`"retentionUntil": "2036-04-03"`, `"listVersion": "2026-03-28 · sha256 3a7bd3e2"`, `"decision": "descartada"`,
		`"method": "codigo"`, `"amountCentavos": 985000000`, `"kind": "intermediacion"`, `"textSha256"`} {
		require.Contains(t, s, name)
	}
	require.True(t, strings.HasPrefix(s, "{\n  \""), "indented")
}

func TestAFileMissingWhatThePDFNeedsIsRefused(t *testing.T) {
	t.Parallel()
	for name, spoil := range map[string]func(*expediente.File){
		"no document name":    func(f *expediente.File) { f.Person.DocumentName = "" },
		"no business":         func(f *expediente.File) { f.Business.Name = "" },
		"no generation time":  func(f *expediente.File) { f.GeneratedAt = time.Time{} },
		"no retention":        func(f *expediente.File) { f.RetentionUntil = expediente.Date{} },
		"unknown method":      func(f *expediente.File) { f.Declarations[0].Method = "firma" },
		"unknown decision":    func(f *expediente.File) { f.Screenings[1].Candidates[0].Resolution.Decision = "quizá" },
		"unknown kind":        func(f *expediente.File) { f.Operation.Kind = "permuta" },
		"unknown aviso":       func(f *expediente.File) { f.Avisos[0].Kind = "otro" },
		"unknown risk level":  func(f *expediente.File) { f.Risk.Level = "extremo" },
		"list without a name": func(f *expediente.File) { f.Screenings[0].ListName = "" },
	} {
		f := realistic()
		spoil(&f)
		_, err := expediente.PDF(f)
		require.ErrorIs(t, err, expediente.ErrInvalid, name)
		_, err = expediente.JSON(f)
		require.ErrorIs(t, err, expediente.ErrInvalid, name)
	}
}

func TestDatesAreCalendarDaysInJSON(t *testing.T) {
	t.Parallel()
	var d expediente.Date
	require.NoError(t, json.Unmarshal([]byte(`"2024-02-29"`), &d))
	require.Equal(t, "29/02/2024", d.Spanish())
	require.Error(t, json.Unmarshal([]byte(`"2025-02-29"`), &d), "a day that does not exist")
	require.Error(t, json.Unmarshal([]byte(`20250101`), &d))
	require.NoError(t, json.Unmarshal([]byte(`null`), &d))
	require.True(t, d.IsZero())
}
