package screening

import (
	"fmt"
	"strconv"
)

// Kind is where a list comes from; it is stored in screening_lists.kind.
type Kind string

const (
	KindUN        Kind = "un"         // the UN Security Council Consolidated List
	KindUIFUpload Kind = "uif_upload" // a list a business uploaded (the UIF's Lista de Personas Bloqueadas)
)

// EntryKind tells a listed person from a listed organisation.
type EntryKind string

const (
	EntryPerson EntryKind = "person"
	EntryEntity EntryKind = "entity"
)

// Entry is one listed person or organisation, as read from a list file.
type Entry struct {
	ID            string      `json:"id"`                      // the list's own identifier (UN DATAID; an upload's row number unless mapped)
	Kind          EntryKind   `json:"kind"`                    // person or entity
	Name          string      `json:"name"`                    // the full name as the list writes it
	GivenNames    string      `json:"givenNames,omitempty"`    // when the list separates them
	Surnames      string      `json:"surnames,omitempty"`      // when the list separates them
	OriginalName  string      `json:"originalName,omitempty"`  // the name in its original script (UN NAME_ORIGINAL_SCRIPT)
	Aliases       []Alias     `json:"aliases,omitempty"`       // other names the list gives
	BirthDates    []BirthDate `json:"birthDates,omitempty"`    // every birth date the list gives; empty: unknown
	Nationalities []string    `json:"nationalities,omitempty"` // as the list writes them
	Reference     string      `json:"reference,omitempty"`     // UN REFERENCE_NUMBER, or the upload's reference column
	Program       string      `json:"program,omitempty"`       // UN_LIST_TYPE (sanctions regime)
	ListedOn      string      `json:"listedOn,omitempty"`      // yyyy-mm-dd as the list gives it
	// Identifiers are RFC or CURP values of an uploaded list. They identify a person outside our
	// system: postgres stores them sealed with a keyed hash beside them, never in the entry JSON.
	Identifiers []string `json:"-"`
}

// Alias is another name of an entry; Low is the UN's QUALITY "Low" (a weak alias: a nickname,
// a single word), which the scorer trusts less.
type Alias struct {
	Name string `json:"name"`
	Low  bool   `json:"low,omitempty"`
}

// BirthDate is one birth date as a list gives it: an exact day, a year, or a range of years.
type BirthDate struct {
	Date     string `json:"date,omitempty"`     // yyyy-mm-dd when the list gives the day
	Year     int    `json:"year,omitempty"`     // when only the year is known
	FromYear int    `json:"fromYear,omitempty"` // a range: from
	ToYear   int    `json:"toYear,omitempty"`   // a range: to (inclusive)
}

// years is the range of years this date covers; ok is false when it says nothing.
func (b BirthDate) years() (from, to int, ok bool) {
	if len(b.Date) >= 4 {
		if y, err := strconv.Atoi(b.Date[:4]); err == nil {
			return y, y, true
		}
	}
	if b.Year > 0 {
		return b.Year, b.Year, true
	}
	if b.FromYear > 0 && b.ToYear >= b.FromYear {
		return b.FromYear, b.ToYear, true
	}
	return 0, 0, false
}

// String writes the date for a person: the day, the year, or "1968–1970".
func (b BirthDate) String() string {
	switch {
	case b.Date != "":
		return b.Date
	case b.Year > 0:
		return fmt.Sprint(b.Year)
	case b.FromYear > 0:
		return fmt.Sprintf("%d–%d", b.FromYear, b.ToYear)
	}
	return ""
}

// List is a parsed list file, ready to import as a new version.
type List struct {
	Name    string  // the list's name, e.g. "Lista consolidada del Consejo de Seguridad de la ONU"
	Kind    Kind    // un or uif_upload
	Source  string  // the file name or URL it was read from
	SHA256  string  // hex checksum of the file's bytes: an identical file makes no new version
	Entries []Entry // every entry; never empty
}

// UNListName is the name the UN list is stored and shown under.
const UNListName = "Lista consolidada del Consejo de Seguridad de la ONU"
