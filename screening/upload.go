package screening

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/charmap"

	"github.com/perfilseguro/perfilseguro/identity"
)

// ColumnMapping says which column of an uploaded list holds what, by header text (compared
// without accents or case). Name, or GivenNames and/or Surnames, is required; the rest is
// optional. Other columns are ignored.
type ColumnMapping struct {
	Name       string // the full name
	GivenNames string // given names, when the list separates them
	Surnames   string // surnames, when the list separates them
	BirthDate  string // dd/mm/aaaa, aaaa-mm-dd or a year
	Aliases    string // other names, separated by | or ;
	Identifier string // RFC or CURP
	Reference  string // the list's own reference for the row
}

// UploadError is why an uploaded list was refused, in Spanish, naming the row and column.
type UploadError struct {
	Row     int    // 1 is the header; 0 when the problem is the whole file
	Column  string // the header text; empty when the problem is not one column
	Message string
}

func (e *UploadError) Error() string {
	switch {
	case e.Row > 0 && e.Column != "":
		return fmt.Sprintf("fila %d, columna «%s»: %s", e.Row, e.Column, e.Message)
	case e.Row > 0:
		return fmt.Sprintf("fila %d: %s", e.Row, e.Message)
	case e.Column != "":
		return fmt.Sprintf("columna «%s»: %s", e.Column, e.Message)
	}
	return e.Message
}

// maxUploadRows bounds one upload: the UIF's list holds thousands of rows, not millions.
const maxUploadRows = 200_000

// ReadUpload reads a list a business uploaded, CSV or XLSX (by its content, or its name),
// into a list named listName. A CSV may start with a byte-order mark, use , ; or tab as
// separator and be written in UTF-8 or Windows-1252 (Excel's default in Mexico). Any problem
// refuses the whole file with an *UploadError: a list is imported whole or not at all.
func ReadUpload(data []byte, fileName, listName string, m ColumnMapping) (List, error) {
	if m.Name == "" && m.GivenNames == "" && m.Surnames == "" {
		return List{}, &UploadError{Message: "indique qué columna tiene el nombre (o los nombres y apellidos)"}
	}
	var rows [][]string
	var err error
	if isXLSX(data, fileName) {
		rows, err = xlsxRows(data)
	} else {
		rows, err = csvRows(data)
	}
	if err != nil {
		return List{}, err
	}
	entries, err := m.entries(rows)
	if err != nil {
		return List{}, err
	}
	return List{Name: listName, Kind: KindUIFUpload, Source: filepath.Base(fileName), SHA256: checksum(data), Entries: entries}, nil
}

func isXLSX(data []byte, name string) bool {
	return bytes.HasPrefix(data, []byte("PK\x03\x04")) || strings.EqualFold(filepath.Ext(name), ".xlsx")
}

func xlsxRows(data []byte) ([][]string, error) {
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		return nil, &UploadError{Message: "el archivo no es un libro de Excel (XLSX) válido"}
	}
	defer f.Close()
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return nil, &UploadError{Message: "el libro de Excel no tiene hojas"}
	}
	// Raw values: a date cell comes as Excel's serial number whatever its display format.
	rows, err := f.GetRows(sheets[0], excelize.Options{RawCellValue: true})
	if err != nil {
		return nil, &UploadError{Message: "no se pudo leer la primera hoja del libro de Excel"}
	}
	return rows, nil
}

func csvRows(data []byte) ([][]string, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(data) {
		decoded, err := charmap.Windows1252.NewDecoder().Bytes(data)
		if err != nil {
			return nil, &UploadError{Message: "el archivo no es texto (CSV en UTF-8 o Windows-1252)"}
		}
		data = decoded
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, &UploadError{Message: "el archivo no es texto: suba un CSV o un XLSX"}
	}
	header, _, _ := bytes.Cut(data, []byte("\n"))
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = separator(header)
	r.FieldsPerRecord = -1 // rows may have more or fewer cells than the header
	// Quotes stay strict: a lenient reader swallows the rows after an unclosed quote silently.
	var rows [][]string
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, &UploadError{Row: pe.Line, Message: "el CSV está mal formado: " + spanishCSV(pe.Err)}
			}
			return nil, &UploadError{Message: "no se pudo leer el CSV"}
		}
		rows = append(rows, rec)
		if len(rows) > maxUploadRows+1 {
			return nil, &UploadError{Message: fmt.Sprintf("el archivo tiene más de %d filas", maxUploadRows)}
		}
	}
	return rows, nil
}

func spanishCSV(err error) string {
	switch {
	case errors.Is(err, csv.ErrQuote), errors.Is(err, csv.ErrBareQuote):
		return "unas comillas no se cierran"
	}
	return "formato no reconocido"
}

// separator is the most frequent of ; , and tab in the header line.
func separator(header []byte) rune {
	best, n := ',', bytes.Count(header, []byte(","))
	for _, c := range []rune{';', '\t'} {
		if k := bytes.Count(header, []byte(string(c))); k > n {
			best, n = c, k
		}
	}
	return best
}

func (m ColumnMapping) entries(rows [][]string) ([]Entry, error) {
	if len(rows) == 0 {
		return nil, &UploadError{Message: "el archivo está vacío"}
	}
	header := map[string]int{}
	for i, h := range rows[0] {
		if k := identity.Fold(h); k != "" {
			if _, dup := header[k]; !dup {
				header[k] = i
			}
		}
	}
	col := func(name string) (int, error) {
		if name == "" {
			return -1, nil
		}
		i, ok := header[identity.Fold(name)]
		if !ok {
			return -1, &UploadError{Row: 1, Column: name, Message: "esa columna no está en el encabezado"}
		}
		return i, nil
	}
	var idx [7]int
	for i, name := range []string{m.Name, m.GivenNames, m.Surnames, m.BirthDate, m.Aliases, m.Identifier, m.Reference} {
		c, err := col(name)
		if err != nil {
			return nil, err
		}
		idx[i] = c
	}
	cell := func(row []string, i int) string {
		if i < 0 || i >= len(row) {
			return ""
		}
		return strings.TrimSpace(row[i])
	}
	var out []Entry
	for r, row := range rows[1:] {
		line := r + 2
		if blank(row) {
			continue
		}
		e := Entry{Kind: EntryPerson, ID: fmt.Sprintf("fila %d", line),
			Name: cell(row, idx[0]), GivenNames: cell(row, idx[1]), Surnames: cell(row, idx[2])}
		if e.Name == "" {
			e.Name = strings.TrimSpace(e.GivenNames + " " + e.Surnames)
		}
		if len(tokens(e.Name)) == 0 {
			column := m.Name
			if column == "" {
				column = firstNonEmpty(m.GivenNames, m.Surnames)
			}
			return nil, &UploadError{Row: line, Column: column, Message: "la fila no tiene nombre"}
		}
		if v := cell(row, idx[3]); v != "" {
			d, ok := parseUploadDate(v)
			if !ok {
				return nil, &UploadError{Row: line, Column: m.BirthDate, Message: fmt.Sprintf("«%s» no es una fecha (dd/mm/aaaa)", v)}
			}
			e.BirthDates = []BirthDate{d}
		}
		for _, a := range strings.FieldsFunc(cell(row, idx[4]), func(r rune) bool { return r == '|' || r == ';' }) {
			if a = strings.TrimSpace(a); a != "" {
				e.Aliases = append(e.Aliases, Alias{Name: a})
			}
		}
		if v := cell(row, idx[5]); v != "" {
			e.Identifiers = []string{strings.ToUpper(strings.ReplaceAll(v, " ", ""))}
		}
		if v := cell(row, idx[6]); v != "" {
			e.Reference, e.ID = v, v
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		return nil, &UploadError{Message: "el archivo no tiene ninguna fila con nombre debajo del encabezado"}
	}
	return out, nil
}

func blank(row []string) bool {
	for _, c := range row {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// parseUploadDate reads dd/mm/aaaa (the way Mexico writes dates), d/m/aaaa, dd-mm-aaaa,
// aaaa-mm-dd, a year alone, or an Excel date serial (an XLSX date cell read raw).
func parseUploadDate(v string) (BirthDate, bool) {
	for _, layout := range []string{"02/01/2006", "2/1/2006", "02-01-2006", "2006-01-02", "2006/01/02"} {
		if t, err := time.Parse(layout, v); err == nil {
			return BirthDate{Date: t.Format(time.DateOnly)}, true
		}
	}
	if n, err := strconv.ParseFloat(v, 64); err == nil {
		if n == float64(int(n)) && n >= 1900 && n <= 2100 {
			return BirthDate{Year: int(n)}, true
		}
		if n > 366 && n < 80000 {
			if t, err := excelize.ExcelDateToTime(n, false); err == nil {
				return BirthDate{Date: t.Format(time.DateOnly)}, true
			}
		}
	}
	return BirthDate{}, false
}
