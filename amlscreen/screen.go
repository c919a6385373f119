package amlscreen

import (
	"encoding/json"
	"time"
	_ "time/tzdata" // the retention day is Mexico City's wherever the worker runs

	"github.com/perfilseguro/perfilseguro/screening"
)

// Threshold is the score from which a list entry is a possible hit the compliance officer must
// review. It is the one the screening package's tests and benchmark use (screening/screen_test.go,
// bench/screening): exact, alias, accent-less, reordered and near names of the fixture clear it,
// clearly different people and namesakes sharing one word do not (two names sharing one word
// never pass 0.5, a different birth year costs 0.2).
const Threshold = 0.7

// Subjects of a screening, as aml_screenings.subject names them.
const (
	SubjectPerson      = "persona"
	SubjectBeneficiary = "beneficiario"
)

// Sources of a screening, as aml_screenings.source names them.
const (
	SourceList     = "lista"
	SourceProvider = "proveedor"
)

// Subject is one name to screen: the person of an operation or the beneficiary they declared.
type Subject struct {
	Kind      string    // SubjectPerson or SubjectBeneficiary
	Name      string    // the document's name (the person) or the declared one (the beneficiary)
	BirthDate time.Time // zero: unknown
	// Consulted are the list versions this subject was already screened against.
	Consulted map[int64]bool
}

// Person is one person of an operation as the screening reads them.
type Person struct {
	RowID     int64  // aml_operation_people.id
	Operation string // aml_operations.id
	PartnerID int64  // the business (api_keys.id): its uploads are screened too
	TestMode  bool   // a test operation: test lists only
	Subjects  []Subject
	// Provider is the person's verification decision as it came from the provider (it may carry
	// aml_screenings[]); nil when none was kept. ProviderScreened: already recorded.
	Provider         json.RawMessage
	ProviderScreened bool
}

// Record is one screening to store: against one list version, or the provider's own.
type Record struct {
	Subject        string
	ScreenedName   string
	ScreenedBirth  time.Time // zero: unknown
	Source         string    // SourceList or SourceProvider
	ListID         int64     // 0 for the provider
	VersionID      int64     // 0 for the provider
	CandidateCount int
	Hits           []Hit
}

// Hit is one possible hit of a Record.
type Hit struct {
	ListName    string
	EntryID     string
	MatchedName string
	Score       float64 // 0..1
	Reasons     []string
	Entry       json.RawMessage
	Blocking    bool // a blocked-persons list (the UN's, a UIF upload): a confirmed hit stops the operation
}

// Screen says what to record for p against the lists of ix p may see: for each subject, one
// Record per list version not consulted yet (with its candidates), and the provider's screening
// when p has one not recorded yet. Nothing to record: nil.
func Screen(ix *screening.Index, p Person) []Record {
	var out []Record
	var lists []screening.ListVersion
	if ix != nil {
		for _, l := range ix.Lists() {
			if (l.Owner == 0 || l.Owner == p.PartnerID) && l.TestMode == p.TestMode {
				lists = append(lists, l)
			}
		}
	}
	for _, s := range p.Subjects {
		if s.Name == "" {
			continue
		}
		var pending []screening.ListVersion
		for _, l := range lists {
			if !s.Consulted[l.VersionID] {
				pending = append(pending, l)
			}
		}
		if len(pending) == 0 {
			continue
		}
		byVersion := map[int64][]screening.Candidate{}
		for _, c := range ix.ScreenFor(screening.Person{Name: s.Name, BirthDate: s.BirthDate}, Threshold, p.PartnerID, p.TestMode) {
			byVersion[c.VersionID] = append(byVersion[c.VersionID], c)
		}
		for _, l := range pending {
			r := Record{Subject: s.Kind, ScreenedName: s.Name, ScreenedBirth: s.BirthDate, Source: SourceList,
				ListID: l.ListID, VersionID: l.VersionID}
			for _, c := range byVersion[l.VersionID] {
				entry, err := json.Marshal(c.Entry)
				if err != nil {
					entry = []byte(`{}`)
				}
				r.Hits = append(r.Hits, Hit{ListName: c.ListName, EntryID: c.EntryID, MatchedName: c.MatchedName,
					Score: c.Score, Reasons: c.Reasons, Entry: entry, Blocking: blockingList(l.Kind)})
			}
			r.CandidateCount = len(r.Hits)
			out = append(out, r)
		}
	}
	if !p.ProviderScreened && len(p.Subjects) > 0 {
		if r, ok := providerRecord(p.Provider, p.Subjects[0]); ok {
			out = append(out, r)
		}
	}
	return out
}

// blockingList: the UN's list and the UIF's Lista de Personas Bloqueadas (what businesses upload)
// are lists of blocked persons; a confirmed hit on them stops the operation.
func blockingList(k screening.Kind) bool {
	return k == screening.KindUN || k == screening.KindUIFUpload
}

// mexicoCity is where a file's retention days are counted.
var mexicoCity = func() *time.Location {
	loc, err := time.LoadLocation("America/Mexico_City")
	if err != nil {
		return time.FixedZone("CST", -6*3600) // Mexico City has kept UTC-6 all year since 2022
	}
	return loc
}()

// Today is the calendar day in Mexico City at now, as a date in UTC: the day a file's
// retention_until is compared with.
func Today(now time.Time) time.Time {
	y, m, d := now.In(mexicoCity).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
