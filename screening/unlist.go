package screening

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// unFile is the UN Security Council Consolidated List XML (consolidated.xml) as published: the
// element names are the file's. Only what screening uses is read.
type unFile struct {
	XMLName     xml.Name       `xml:"CONSOLIDATED_LIST"`
	Generated   string         `xml:"dateGenerated,attr"`
	Individuals []unIndividual `xml:"INDIVIDUALS>INDIVIDUAL"`
	Entities    []unEntity     `xml:"ENTITIES>ENTITY"`
}

type unCommon struct {
	DataID       string   `xml:"DATAID"`
	FirstName    string   `xml:"FIRST_NAME"`
	SecondName   string   `xml:"SECOND_NAME"`
	ThirdName    string   `xml:"THIRD_NAME"`
	FourthName   string   `xml:"FOURTH_NAME"`
	ListType     string   `xml:"UN_LIST_TYPE"`
	Reference    string   `xml:"REFERENCE_NUMBER"`
	ListedOn     string   `xml:"LISTED_ON"`
	OriginalName string   `xml:"NAME_ORIGINAL_SCRIPT"`
	Nationality  []string `xml:"NATIONALITY>VALUE"`
}

type unAlias struct {
	Quality string `xml:"QUALITY"`
	Name    string `xml:"ALIAS_NAME"`
}

type unBirth struct {
	Type     string `xml:"TYPE_OF_DATE"`
	Date     string `xml:"DATE"`
	Year     string `xml:"YEAR"`
	FromYear string `xml:"FROM_YEAR"`
	ToYear   string `xml:"TO_YEAR"`
}

type unIndividual struct {
	unCommon
	Aliases []unAlias `xml:"INDIVIDUAL_ALIAS"`
	Births  []unBirth `xml:"INDIVIDUAL_DATE_OF_BIRTH"`
}

type unEntity struct {
	unCommon
	Aliases []unAlias `xml:"ENTITY_ALIAS"`
}

// ErrEmptyList is returned for a file that parses but lists nobody: importing it would empty
// the screening, so it is refused.
var ErrEmptyList = errors.New("la lista no contiene ninguna persona ni entidad")

// ParseUNList reads the UN Security Council Consolidated List XML. source is the file name or
// URL it came from, kept with the version.
func ParseUNList(data []byte, source string) (List, error) {
	var f unFile
	dec := xml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&f); err != nil {
		return List{}, fmt.Errorf("la lista de la ONU no es un XML válido (CONSOLIDATED_LIST): %w", err)
	}
	list := List{Name: UNListName, Kind: KindUN, Source: source, SHA256: checksum(data)}
	for _, in := range f.Individuals {
		e := in.entry(EntryPerson)
		for _, b := range in.Births {
			if d, ok := b.birthDate(); ok {
				e.BirthDates = append(e.BirthDates, d)
			}
		}
		e.Aliases = aliases(in.Aliases)
		if e.Name != "" {
			list.Entries = append(list.Entries, e)
		}
	}
	for _, en := range f.Entities {
		e := en.entry(EntryEntity)
		e.Aliases = aliases(en.Aliases)
		if e.Name != "" {
			list.Entries = append(list.Entries, e)
		}
	}
	if len(list.Entries) == 0 {
		return List{}, ErrEmptyList
	}
	return list, nil
}

func (c unCommon) entry(kind EntryKind) Entry {
	var parts []string
	for _, p := range []string{c.FirstName, c.SecondName, c.ThirdName, c.FourthName} {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	id := strings.TrimSpace(c.DataID)
	if id == "" {
		id = strings.TrimSpace(c.Reference)
	}
	var nats []string
	for _, n := range c.Nationality {
		if n = strings.TrimSpace(n); n != "" {
			nats = append(nats, n)
		}
	}
	return Entry{
		ID: id, Kind: kind, Name: strings.Join(parts, " "),
		OriginalName: strings.TrimSpace(c.OriginalName), Nationalities: nats,
		Reference: strings.TrimSpace(c.Reference), Program: strings.TrimSpace(c.ListType),
		ListedOn: strings.TrimSpace(c.ListedOn),
	}
}

func aliases(in []unAlias) []Alias {
	var out []Alias
	for _, a := range in {
		if n := strings.TrimSpace(a.Name); n != "" {
			out = append(out, Alias{Name: n, Low: strings.EqualFold(strings.TrimSpace(a.Quality), "low")})
		}
	}
	return out
}

// birthDate reads one INDIVIDUAL_DATE_OF_BIRTH: a DATE (the real file writes some EXACT dates as
// a YEAR only), a YEAR, or FROM_YEAR/TO_YEAR.
func (b unBirth) birthDate() (BirthDate, bool) {
	if d := strings.TrimSpace(b.Date); len(d) >= 10 {
		return BirthDate{Date: d[:10]}, true
	}
	if y, err := strconv.Atoi(strings.TrimSpace(b.Year)); err == nil && y > 0 {
		return BirthDate{Year: y}, true
	}
	from, err1 := strconv.Atoi(strings.TrimSpace(b.FromYear))
	to, err2 := strconv.Atoi(strings.TrimSpace(b.ToYear))
	if err1 == nil && err2 == nil && from > 0 && to >= from {
		return BirthDate{FromYear: from, ToYear: to}, true
	}
	return BirthDate{}, false
}

func checksum(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
