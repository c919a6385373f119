package identity

import (
	"slices"
	"strings"
	"unicode"

	"github.com/hbollon/go-edlib"
	"golang.org/x/text/cases"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Outcome is the verdict of a name comparison.
type Outcome string

// The three outcomes of CompareNames (see the package comment for the rules).
const (
	Match    Outcome = "match"
	Near     Outcome = "near"
	Mismatch Outcome = "mismatch"
)

// Reason names one finding behind an outcome; Text gives it in Spanish for the review screen.
type Reason string

// Reasons CompareNames reports.
const (
	ReasonTypo               Reason = "typo"                 // one letter differs in a long word
	ReasonJoined             Reason = "joined"               // words written together or apart
	ReasonParticle           Reason = "particle"             // particles differ from the document's
	ReasonFirstSurnameAbsent Reason = "first_surname_absent" // the first surname was not typed
	ReasonGivenNameAbsent    Reason = "given_name_absent"    // no given name was typed
	ReasonSurnameAbsent      Reason = "surname_absent"       // no surname was typed
	ReasonNotOnDocument      Reason = "not_on_document"      // a typed word is not on the document
	ReasonEmpty              Reason = "empty"                // one of the names has no words
)

var reasonText = map[Reason]string{
	ReasonTypo:               "Una letra distinta en una palabra larga",
	ReasonJoined:             "Palabras escritas juntas o separadas",
	ReasonParticle:           "Las partículas (de, del, la, y…) no coinciden",
	ReasonFirstSurnameAbsent: "Falta el primer apellido",
	ReasonGivenNameAbsent:    "Falta el nombre de pila",
	ReasonSurnameAbsent:      "Falta el apellido",
	ReasonNotOnDocument:      "Una palabra escrita no aparece en la identificación",
	ReasonEmpty:              "Uno de los nombres está vacío",
}

// Text is the reason in Spanish, for people.
func (r Reason) Text() string { return reasonText[r] }

// Part is the place of a word in the document's name.
type Part string

// Parts of a name.
const (
	PartGiven         Part = "given"
	PartFirstSurname  Part = "first_surname"
	PartSecondSurname Part = "second_surname"
	PartNone          Part = "" // the typed word was not found on the document
)

// Reading says how the document's name was split into given names and surnames.
type Reading string

// Readings of the document's name.
const (
	ReadingFields        Reading = "fields"         // the document gave each part
	ReadingGivenFirst    Reading = "given_first"    // full name only, read "María López Hernández"
	ReadingSurnamesFirst Reading = "surnames_first" // full name only, read as the INE prints it
)

// DocumentName is the name as the ID gives it. Fill GivenNames and the surnames when the
// document gives them; FullName only when it gives nothing else. A provider's single
// last-name field holding both surnames may go in FirstSurname whole.
type DocumentName struct {
	GivenNames    string // "MARÍA JOSÉ"
	FirstSurname  string // "LÓPEZ", "DE LA GARZA", "RUIZ DE VELASCO"
	SecondSurname string // "HERNÁNDEZ"; empty when the person has one surname
	FullName      string // used only when the three fields above are empty
}

// NameResult is the outcome of CompareNames with what it was based on, for a review screen.
type NameResult struct {
	Outcome Outcome
	Reasons []Reason     // findings in the order found; empty on a clean match
	Score   float64      // mean Jaro-Winkler similarity of the typed words to their match, 0..1
	Words   []WordResult // one per typed word (particles left out)
	Reading Reading
	// Document is the document's name as read: the fields it gave, or its full name split
	// the way the outcome was reached. Document.Display() is the name to certify on a match.
	Document DocumentName
}

// WordResult is how one typed word was found on the document.
type WordResult struct {
	Typed       string  // folded typed word
	Document    string  // folded document word(s) it was matched with; the closest one when absent
	Part        Part    // where on the document; PartNone when absent
	How         string  // "exact", "joined", "typo" or "absent"
	JaroWinkler float64 // similarity to Document, 0..1
	Distance    int     // Damerau-Levenshtein distance to Document
}

// Limits that keep a comparison cheap whatever the input.
const (
	maxWords    = 12 // words per name looked at
	maxWordLen  = 40 // runes per word looked at
	minTypoLen  = 6  // a one-letter difference counts only in words at least this long
	maxJoinSize = 3  // words that may be written together as one
)

// particles are the short words of compound names, compared apart from the name words.
var particles = map[string]bool{
	"de": true, "del": true, "la": true, "las": true, "los": true, "y": true, "e": true,
	"van": true, "von": true, "der": true, "den": true, "da": true, "das": true,
	"do": true, "dos": true, "di": true,
}

// Fold is a name as compared: accents dropped, case folded, ñ as n, anything that is not a
// letter or digit read as a space, spaces collapsed.
func Fold(s string) string {
	s = strings.ToValidUTF8(s, " ")
	// A chain keeps state between calls, so each call builds its own.
	folder := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC, cases.Fold())
	folded, _, err := transform.String(folder, s)
	if err != nil {
		folded = strings.ToLower(s)
	}
	folded = strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r // a digit stays in its word: an OCR "G0NZALEZ" is one letter off
		}
		return ' '
	}, folded)
	return strings.Join(strings.Fields(folded), " ")
}

// word is one name word with the particles written just before it.
type word struct {
	text   string
	before string // particles before it in the same part, folded, space separated
	part   Part
	head   bool // the first word of the first surname
	start  int  // index of the original field where the word and its particles begin
	used   bool
}

// words splits one part of a name into name words, keeping particles with the word after them.
// Particles with no word after them come back in trailing.
func words(s string, part Part) (out []word, trailing string) {
	var pending []string
	start := 0
	for i, field := range strings.Fields(s) {
		for _, w := range strings.Fields(Fold(field)) {
			if r := []rune(w); len(r) > maxWordLen {
				w = string(r[:maxWordLen])
			}
			if len(pending) == 0 {
				start = i
			}
			if particles[w] {
				pending = append(pending, w)
				continue
			}
			if len(out) == maxWords {
				return out, ""
			}
			out = append(out, word{text: w, before: strings.Join(pending, " "), part: part, start: start})
			pending = nil
		}
	}
	return out, strings.Join(pending, " ")
}

// CompareNames compares the name a person typed with the name on their document.
func CompareNames(typed string, doc DocumentName) NameResult {
	if strings.TrimSpace(doc.GivenNames+doc.FirstSurname+doc.SecondSurname) != "" {
		given, t1 := words(doc.GivenNames, PartGiven)
		first, t2 := words(doc.FirstSurname, PartFirstSurname)
		second, t3 := words(doc.SecondSurname, PartSecondSurname)
		res := compare(typed, given, first, second, ReadingFields, t1, t2, t3)
		res.Document = doc
		return res
	}
	all, trailing := words(doc.FullName, PartNone)
	original := strings.Fields(doc.FullName)
	n := len(all)
	// Given names first: the last two words are the surnames.
	g, f, s := split(all, max(n-2, 1), n-1)
	best := compare(typed, g, f, s, ReadingGivenFirst, trailing)
	best.Document = DocumentName{FullName: doc.FullName, GivenNames: span(original, g, f, s), FirstSurname: span(original, f, s), SecondSurname: span(original, s)}
	// Surnames first, as the INE prints them.
	f, s, g = split(all, 1, min(2, n))
	if n == 2 {
		f, g, s = split(all, 1, 2)
	}
	other := compare(typed, g, f, s, ReadingSurnamesFirst, trailing)
	other.Document = DocumentName{FullName: doc.FullName, FirstSurname: span(original, f, s, g), SecondSurname: span(original, s, g), GivenNames: span(original, g)}
	if better(other, best) {
		best = other
	}
	return best
}

// span is the original text of a part of the full name: from its first word (with the
// particles before it) up to the first word of the next non-empty part that follows it.
func span(original []string, part []word, following ...[]word) string {
	if len(part) == 0 {
		return ""
	}
	end := len(original)
	for _, next := range following {
		if len(next) > 0 {
			end = next[0].start
			break
		}
	}
	return strings.Join(original[part[0].start:end], " ")
}

// split cuts ws at i and j into three copies; a part past the end is empty.
func split(ws []word, i, j int) (a, b, c []word) {
	i, j = min(i, len(ws)), max(min(j, len(ws)), min(i, len(ws)))
	return clone(ws[:i]), clone(ws[i:j]), clone(ws[j:])
}

func clone(ws []word) []word { return append([]word(nil), ws...) }

var rank = map[Outcome]int{Match: 2, Near: 1, Mismatch: 0}

func better(a, b NameResult) bool {
	if rank[a.Outcome] != rank[b.Outcome] {
		return rank[a.Outcome] > rank[b.Outcome]
	}
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	// People type their given name first: prefer the reading where the first typed word is one.
	return startsWithGiven(a) && !startsWithGiven(b)
}

func startsWithGiven(r NameResult) bool {
	return len(r.Words) > 0 && r.Words[0].Part == PartGiven
}

// compare matches the typed words against the document's, in passes from the surest to the
// loosest: exact, written together or apart, one letter off.
// docTrailing are particles the document itself ends a part with; typed at the end they are no
// difference.
func compare(typed string, given, first, second []word, reading Reading, docTrailing ...string) NameResult {
	for i := range given {
		given[i].part = PartGiven
	}
	for i := range first {
		first[i].part = PartFirstSurname
		first[i].head = i == 0
	}
	for i := range second {
		second[i].part = PartSecondSurname
	}
	docs := append(append(append([]word(nil), given...), first...), second...)
	typedWords, trailing := words(typed, PartNone)
	res := NameResult{Reading: reading, Words: make([]WordResult, len(typedWords))}
	if len(typedWords) == 0 || len(docs) == 0 {
		res.Outcome, res.Reasons, res.Words = Mismatch, []Reason{ReasonEmpty}, nil
		return res
	}
	reasons := map[Reason]bool{}
	if trailing != "" && !slices.Contains(docTrailing, trailing) {
		reasons[ReasonParticle] = true
	}
	found := make([]bool, len(typedWords))
	matched := make([][]int, len(typedWords)) // document words each typed word matched
	set := func(t int, how string, ds ...int) {
		found[t] = true
		matched[t] = ds
		texts := make([]string, len(ds))
		for k, d := range ds {
			docs[d].used = true
			texts[k] = docs[d].text
		}
		res.Words[t] = WordResult{Typed: typedWords[t].text, Document: strings.Join(texts, " "), Part: docs[ds[0]].part, How: how}
	}

	// 1. Exact words.
	for t, tw := range typedWords {
		for d := range docs {
			if !docs[d].used && docs[d].text == tw.text {
				set(t, "exact", d)
				if tw.before != "" && tw.before != docs[d].before {
					reasons[ReasonParticle] = true
				}
				break
			}
		}
	}
	// 2. Typed words written apart that are one document word ("Mari Carmen" for MARICARMEN).
	for t := range typedWords {
		for size := maxJoinSize; size >= 2 && !found[t]; size-- {
			if t+size > len(typedWords) || anyFound(found[t:t+size]) {
				continue
			}
			joined := joinText(typedWords[t : t+size])
			for d := range docs {
				if !docs[d].used && docs[d].text == joined {
					for k := t; k < t+size; k++ {
						set(k, "joined", d)
					}
					reasons[ReasonJoined] = true
					break
				}
			}
		}
	}
	// 3. One typed word that is several document words, or one with its particles
	// ("Delagarza", "Mariajose", "Ruizdevelasco").
	for t, tw := range typedWords {
		for size := maxJoinSize; size >= 1 && !found[t]; size-- {
			for d := 0; d+size <= len(docs); d++ {
				run := docs[d : d+size]
				if anyUsed(run) || joinWithParticles(run) != tw.text && joinText(run) != tw.text {
					continue
				}
				set(t, "joined", seq(d, size)...)
				reasons[ReasonJoined] = true
				break
			}
		}
	}
	// 4. One letter off in a long word.
	for t, tw := range typedWords {
		if found[t] {
			continue
		}
		for d := range docs {
			if docs[d].used || min(runeLen(tw.text), runeLen(docs[d].text)) < minTypoLen {
				continue
			}
			if edlib.DamerauLevenshteinDistance(tw.text, docs[d].text) == 1 {
				set(t, "typo", d)
				reasons[ReasonTypo] = true
				break
			}
		}
	}

	// Scores, and what was left unfound.
	var sum float64
	var given0, head, surname bool
	for t, tw := range typedWords {
		w := &res.Words[t]
		if !found[t] {
			reasons[ReasonNotOnDocument] = true
			w.Typed, w.How, w.Document = tw.text, "absent", closest(tw.text, docs)
		} else {
			for _, d := range matched[t] {
				given0 = given0 || docs[d].part == PartGiven
				head = head || docs[d].head
				surname = surname || docs[d].part != PartGiven
			}
		}
		w.JaroWinkler = float64(edlib.JaroWinklerSimilarity(w.Typed, strings.ReplaceAll(w.Document, " ", "")))
		w.Distance = edlib.DamerauLevenshteinDistance(w.Typed, strings.ReplaceAll(w.Document, " ", ""))
		sum += w.JaroWinkler
	}
	res.Score = sum / float64(len(typedWords))

	switch {
	case !given0:
		reasons[ReasonGivenNameAbsent] = true
	case !surname:
		reasons[ReasonSurnameAbsent] = true
	case !head:
		reasons[ReasonFirstSurnameAbsent] = true
	}
	for _, r := range []Reason{ReasonNotOnDocument, ReasonGivenNameAbsent, ReasonSurnameAbsent, ReasonFirstSurnameAbsent, ReasonTypo, ReasonJoined, ReasonParticle} {
		if reasons[r] {
			res.Reasons = append(res.Reasons, r)
		}
	}
	switch {
	case reasons[ReasonNotOnDocument] || reasons[ReasonGivenNameAbsent] || reasons[ReasonSurnameAbsent]:
		res.Outcome = Mismatch
	case len(res.Reasons) > 0:
		res.Outcome = Near
	default:
		res.Outcome = Match
	}
	return res
}

func anyFound(fs []bool) bool {
	for _, f := range fs {
		if f {
			return true
		}
	}
	return false
}

func anyUsed(ws []word) bool {
	for _, w := range ws {
		if w.used {
			return true
		}
	}
	return false
}

func joinText(ws []word) string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString(w.text)
	}
	return b.String()
}

// joinWithParticles writes document words together with the particles between them, as in
// "delagarza" for DE LA GARZA or "ruizdevelasco" for RUIZ DE VELASCO.
func joinWithParticles(ws []word) string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString(strings.ReplaceAll(w.before, " ", ""))
		b.WriteString(w.text)
	}
	return b.String()
}

func seq(from, n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = from + i
	}
	return s
}

func runeLen(s string) int { return len([]rune(s)) }

// closest is the document word most like w, shown beside a word that was not found.
func closest(w string, docs []word) string {
	best, score := "", float32(-1)
	for _, d := range docs {
		if s := edlib.JaroWinklerSimilarity(w, d.text); s > score {
			best, score = d.text, s
		}
	}
	return best
}
