package screening

import (
	"strings"

	"github.com/perfilseguro/perfilseguro/identity"
)

// UploadPreview is what the console shows before a list is imported: the header of its first
// sheet (or the CSV's first line), a few rows under it, and a guessed mapping to confirm.
type UploadPreview struct {
	Columns   []string
	Sample    [][]string
	Suggested ColumnMapping
}

// previewRows is how many rows under the header a preview shows.
const previewRows = 5

// PreviewUpload reads an uploaded CSV or XLSX only as far as the console needs to offer a
// mapping. A file that cannot be read is refused with the same *UploadError ReadUpload gives.
func PreviewUpload(data []byte, fileName string) (UploadPreview, error) {
	var rows [][]string
	var err error
	if isXLSX(data, fileName) {
		rows, err = xlsxRows(data)
	} else {
		rows, err = csvRows(data)
	}
	if err != nil {
		return UploadPreview{}, err
	}
	if len(rows) == 0 || blank(rows[0]) {
		return UploadPreview{}, &UploadError{Message: "el archivo está vacío o su primera fila no tiene encabezados"}
	}
	p := UploadPreview{Columns: []string{}, Sample: [][]string{}}
	for _, h := range rows[0] {
		p.Columns = append(p.Columns, strings.TrimSpace(h))
	}
	for _, row := range rows[1:] {
		if len(p.Sample) == previewRows {
			break
		}
		if !blank(row) {
			p.Sample = append(p.Sample, row)
		}
	}
	p.Suggested = SuggestMapping(p.Columns)
	return p, nil
}

// SuggestMapping guesses which header holds what from the words the UIF's and businesses' lists
// use (compared without accents or case); an unguessed field stays empty for the person to choose.
func SuggestMapping(columns []string) ColumnMapping {
	var m ColumnMapping
	pick := func(dst *string, col string, words ...string) bool {
		if *dst != "" {
			return false
		}
		for _, w := range words {
			if strings.Contains(identity.Fold(col), w) {
				*dst = col
				return true
			}
		}
		return false
	}
	for _, c := range columns {
		f := identity.Fold(c)
		switch {
		case f == "":
		case pick(&m.BirthDate, c, "nacimiento", "birth", "fecha"):
		case pick(&m.Aliases, c, "alias", "conocido", "otros nombres", "otro nombre", "aka"):
		case pick(&m.Identifier, c, "rfc", "curp"):
		case pick(&m.Surnames, c, "apellido", "surname"):
		case pick(&m.GivenNames, c, "nombres", "nombre s", "given"):
		case f == "id" || f == "no" || f == "num":
			pick(&m.Reference, c, f)
		case pick(&m.Reference, c, "folio", "referencia", "clave"):
		default:
			pick(&m.Name, c, "nombre", "name", "razon social", "persona")
		}
	}
	if m.Name != "" && (m.GivenNames != "" || m.Surnames != "") {
		m.GivenNames, m.Surnames = "", ""
	}
	return m
}
