package screening

import (
	"sort"
	"strings"
	"sync"
	"time"
)

// ListVersion is one stored version of a list, with its entries, as the index holds it.
type ListVersion struct {
	ListID     int64     // screening_lists.id
	Name       string    // the list's name
	Kind       Kind      // un or uif_upload
	Owner      int64     // the partner (api_keys.id) that uploaded it; 0: a public list (the UN's)
	TestMode   bool      // a list of test mode: only test screenings see it
	VersionID  int64     // screening_list_versions.id
	Version    int       // 1, 2, ... per list
	ImportedAt time.Time // when this version was imported
	Entries    []Entry
}

// Person is who is screened: the name from their identity document and what else it says.
type Person struct {
	Name        string    // the full name; when empty, GivenNames and Surnames joined
	GivenNames  string    // optional: lets the scorer check the surnames apart
	Surnames    string    // optional
	BirthDate   time.Time // zero: unknown (the date then neither helps nor hurts)
	Nationality string    // as the document gives it; reported, not scored (lists write countries freely)
}

// Candidate is a possible hit: one list entry that may be the screened person.
type Candidate struct {
	EntryID     string   // the list's identifier of the entry (UN DATAID)
	ListID      int64    // screening_lists.id
	ListName    string   // the list's name
	ListVersion int      // the version screened against
	VersionID   int64    // screening_list_versions.id
	Score       float64  // 0..1; 1 is the same name and birth date
	Reasons     []string // in Spanish, for the compliance officer
	MatchedName string   // the entry's name or alias that matched best
	Entry       Entry    // the entry itself
}

// Index answers Screen without scanning the lists: each name (and alias) of each entry is
// filed under the sound keys of its words; a screening looks up the person's words, counts the
// shared words per name, and scores only names sharing enough of them. It is immutable once
// built and safe for concurrent use.
type Index struct {
	lists    []ListVersion
	entries  []indexedEntry
	names    []indexedName
	postings map[string][]int32
	dict     map[string]uint32 // every word and key of the lists, numbered: words compare as numbers
	nameLen  []uint8           // words per name, beside names so the first filter reads no name
	weights  Weights
	scratch  sync.Pool // *[]uint8 counters, one per name
}

type indexedEntry struct {
	list     int32 // index into lists
	entry    *Entry
	surnames []token
}

type indexedName struct {
	entry  int32
	text   string
	low    bool // a UN alias of quality Low
	tokens []token
}

// NewIndex builds the index over the given list versions (normally the latest of each list).
func NewIndex(lists []ListVersion) *Index {
	ix := &Index{lists: lists, postings: map[string][]int32{}, dict: map[string]uint32{}, weights: DefaultWeights}
	for li := range lists {
		for ei := range lists[li].Entries {
			e := &lists[li].Entries[ei]
			entryID := int32(len(ix.entries))
			ix.entries = append(ix.entries, indexedEntry{list: int32(li), entry: e, surnames: ix.intern(tokens(e.Surnames))})
			ix.addName(entryID, e.Name, false)
			if e.Name == "" && (e.GivenNames != "" || e.Surnames != "") {
				ix.addName(entryID, strings.TrimSpace(e.GivenNames+" "+e.Surnames), false)
			}
			if e.OriginalName != "" {
				ix.addName(entryID, e.OriginalName, false)
			}
			for _, a := range e.Aliases {
				ix.addName(entryID, a.Name, a.Low)
			}
		}
	}
	n := len(ix.names)
	ix.scratch.New = func() any { s := make([]uint8, n); return &s }
	return ix
}

// intern numbers the words and keys of a listed name, adding new ones to the dictionary.
func (ix *Index) intern(toks []token) []token {
	number := func(s string) uint32 {
		id, ok := ix.dict[s]
		if !ok {
			id = uint32(len(ix.dict) + 1)
			ix.dict[s] = id
		}
		return id
	}
	for i := range toks {
		toks[i].id, toks[i].keyID = number(toks[i].text), number("\x00"+toks[i].key)
	}
	return toks
}

// lookup numbers the words of a screened name from the dictionary, without adding to it.
func (ix *Index) lookup(toks []token) []token {
	for i := range toks {
		toks[i].id, toks[i].keyID = ix.dict[toks[i].text], ix.dict["\x00"+toks[i].key]
	}
	return toks
}

func (ix *Index) addName(entry int32, text string, low bool) {
	toks := ix.intern(tokens(text))
	if len(toks) == 0 {
		return
	}
	id := int32(len(ix.names))
	ix.names = append(ix.names, indexedName{entry: entry, text: text, low: low, tokens: toks})
	ix.nameLen = append(ix.nameLen, uint8(min(len(toks), 255)))
	seen := make(map[string]bool, len(toks))
	for _, t := range toks {
		if len(t.key) < 2 || seen[t.key] {
			continue
		}
		seen[t.key] = true
		ix.postings[t.key] = append(ix.postings[t.key], id)
	}
}

// Size is the number of entries and of names (with aliases) indexed.
func (ix *Index) Size() (entries, names int) { return len(ix.entries), len(ix.names) }

// Lists are the list versions the index holds.
func (ix *Index) Lists() []ListVersion { return ix.lists }

// Screen returns the entries of every indexed list that may be the person, best first, each
// scoring at least threshold. Entities are not compared with people.
func (ix *Index) Screen(p Person, threshold float64) []Candidate {
	return ix.screen(p, threshold, func(ListVersion) bool { return true })
}

// ScreenFor is Screen over the lists a partner may screen against: the public lists and its own
// uploads, in its mode (test keys see test lists only, live keys live lists only).
func (ix *Index) ScreenFor(p Person, threshold float64, owner int64, testMode bool) []Candidate {
	return ix.screen(p, threshold, func(l ListVersion) bool {
		return (l.Owner == 0 || l.Owner == owner) && l.TestMode == testMode
	})
}

func (ix *Index) screen(p Person, threshold float64, allowed func(ListVersion) bool) []Candidate {
	full := strings.TrimSpace(p.Name)
	if full == "" {
		full = strings.TrimSpace(p.GivenNames + " " + p.Surnames)
	}
	q := ix.lookup(tokens(full))
	if len(q) == 0 || len(ix.names) == 0 {
		return nil
	}
	query := query{person: p, tokens: q, surnames: ix.lookup(tokens(p.Surnames))}
	keys := map[string]bool{}
	for _, t := range q {
		keys[t.key] = true
		if s := skeleton(t.text); len(s) >= 2 {
			keys["~"+s] = true
		}
	}
	countsP := ix.scratch.Get().(*[]uint8)
	counts := *countsP
	var touched []int32
	for k := range keys {
		for _, id := range ix.postings[k] {
			if counts[id] == 0 {
				touched = append(touched, id)
			}
			if counts[id] < 255 {
				counts[id]++
			}
		}
	}
	type kept struct {
		score float64
		name  int32
	}
	best := map[int32]kept{}
	for _, id := range touched {
		shared := int(counts[id])
		counts[id] = 0
		nn := int(ix.nameLen[id])
		if shared < min(2, len(q), nn) || !ix.weights.mayReach(shared, len(q), nn, threshold) {
			continue
		}
		n := &ix.names[id]
		e := &ix.entries[n.entry]
		if e.entry.Kind == EntryEntity || !allowed(ix.lists[e.list]) {
			continue
		}
		score, _ := ix.weights.score(query, n, e, false)
		if score < threshold {
			continue
		}
		if prev, ok := best[n.entry]; ok && prev.score >= score {
			continue
		}
		best[n.entry] = kept{score, id}
	}
	ix.scratch.Put(countsP)
	out := make([]Candidate, 0, len(best))
	for entryID, k := range best {
		n, e := &ix.names[k.name], &ix.entries[entryID]
		l := ix.lists[e.list]
		score, reasons := ix.weights.score(query, n, e, true)
		out = append(out, Candidate{
			EntryID: e.entry.ID, ListID: l.ListID, ListName: l.Name, ListVersion: l.Version, VersionID: l.VersionID,
			Score: score, Reasons: reasons, MatchedName: n.text, Entry: *e.entry,
		})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].EntryID < out[j].EntryID
	})
	return out
}
