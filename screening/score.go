package screening

import (
	"fmt"
	"strings"
	"time"

	"github.com/hbollon/go-edlib"
)

// Weights are the scorer's numbers. They are not legal thresholds (the compliance officer's
// threshold is the caller's), only how evidence moves a score; the package comment says where
// each comes from.
type Weights struct {
	SoundAlike     float64 // a word spelled differently but sounding the same ("Gonsales")
	Transliterated float64 // a word from Arabic script with the same consonants
	MinTypoRunes   int     // a spelling slip counts only in words at least this long (identity's rule)
	MinJaroWinkler float64 // and only when at least this similar
	ShortSide      float64 // share of the score from how much of the shorter name is found
	OneWordCap     float64 // the most a single shared word can score when both names have more
	SingleWord     float64 // factor for a name of one word (an alias like "Musa")
	LowAlias       float64 // subtracted for a UN alias of quality Low
	SurnameMiss    float64 // subtracted when the list separates surnames and none is the person's
	SameDay        float64 // added for the same birth date
	SameYear       float64 // added when the list's year or range holds the person's year
	OtherDay       float64 // subtracted for another day in the same year
	OtherYear      float64 // subtracted when no birth year the list gives is the person's
}

// DefaultWeights are the weights NewIndex uses.
var DefaultWeights = Weights{
	SoundAlike: 0.95, Transliterated: 0.85, MinTypoRunes: 6, MinJaroWinkler: 0.90,
	ShortSide: 0.75, OneWordCap: 0.5, SingleWord: 0.8, LowAlias: 0.1, SurnameMiss: 0.15,
	SameDay: 0.08, SameYear: 0.03, OtherDay: 0.08, OtherYear: 0.2,
}

// mayReach reports whether a name sharing shared index keys with the person could still score
// threshold: the shared words as exact, at most one more word as a spelling slip (a slip
// changes the sound key, so it is not counted by the index), and the best birth-date bonus. A
// name that differs in two words that do not sound alike is not scored at all: that is what
// keeps a screening from scoring every namesake of a common name.
func (w Weights) mayReach(shared, nq, nn int, threshold float64) bool {
	matched := float64(min(shared+1, nq, nn))
	short, long := float64(min(nq, nn)), float64(max(nq, nn))
	best := w.ShortSide*matched/short + (1-w.ShortSide)*matched/long
	if nq == 1 || nn == 1 {
		best *= w.SingleWord
	}
	return best+w.SameDay >= threshold
}

// query is the screened person, normalised once.
type query struct {
	person   Person
	tokens   []token
	surnames []token
}

// wordMatch is how one word of the person compares with one word of a listed name.
type wordMatch struct {
	sim float64
	how string
}

func (w Weights) words(q, n token) wordMatch {
	if n.abjad || q.abjad {
		if s := skeleton(q.text); len(s) >= 2 && s == skeleton(n.text) {
			return wordMatch{w.Transliterated, "transliteración"}
		}
		return wordMatch{}
	}
	// Numbered by the index's dictionary: 0 is a word no list has, equal to nothing listed.
	if q.id != 0 && q.id == n.id {
		return wordMatch{1, "exacta"}
	}
	if q.keyID != 0 && q.keyID == n.keyID {
		return wordMatch{w.SoundAlike, "se escribe distinto y suena igual"}
	}
	// A slip is looked for only in long words that start alike: Jaro-Winkler weighs the start,
	// and a different first letter that sounds the same was caught by the key above.
	if q.runes >= w.MinTypoRunes && n.runes >= w.MinTypoRunes && q.text[0] == n.text[0] &&
		abs(q.runes-n.runes) <= 2 {
		if jw := jaroWinkler(q.text, n.text); jw >= w.MinJaroWinkler {
			return wordMatch{jw, "casi igual"}
		}
	}
	return wordMatch{}
}

// score compares the person with one name of an entry and qualifies it with the birth date; the
// reasons are written only when explain is set (the candidates kept), the costly part otherwise.
func (w Weights) score(q query, n *indexedName, e *indexedEntry, explain bool) (float64, []string) {
	nq, nn := len(q.tokens), len(n.tokens)
	// Greedy alignment: the most similar pair first, each word used once.
	type pair struct {
		i, j int
		m    wordMatch
	}
	var buf [16]pair
	pairs := buf[:0]
	for i, qt := range q.tokens {
		for j, nt := range n.tokens {
			if m := w.words(qt, nt); m.sim > 0 {
				pairs = append(pairs, pair{i, j, m})
			}
		}
	}
	for a := 1; a < len(pairs); a++ { // insertion sort: a handful of pairs
		for b := a; b > 0 && pairs[b].m.sim > pairs[b-1].m.sim; b-- {
			pairs[b], pairs[b-1] = pairs[b-1], pairs[b]
		}
	}
	var qbuf [12]int
	var nbuf [12]bool
	usedQ, usedN := qbuf[:0], nbuf[:0]
	if nq <= len(qbuf) && nn <= len(nbuf) {
		usedQ, usedN = qbuf[:nq], nbuf[:nn]
	} else {
		usedQ, usedN = make([]int, nq), make([]bool, nn)
	}
	for i := range usedQ {
		usedQ[i] = -1
	}
	var sum float64
	matched := 0
	var reasons, inexact []string
	for _, p := range pairs {
		if usedQ[p.i] >= 0 || usedN[p.j] {
			continue
		}
		usedQ[p.i], usedN[p.j] = p.j, true
		sum += p.m.sim
		matched++
		if explain && p.m.how != "exacta" {
			inexact = append(inexact, fmt.Sprintf("«%s» y «%s»: %s", q.tokens[p.i].text, n.tokens[p.j].text, p.m.how))
		}
	}
	if matched == 0 {
		return 0, nil
	}
	covQ, covN := sum/float64(nq), sum/float64(nn)
	short, long := max(covQ, covN), min(covQ, covN)
	score := w.ShortSide*short + (1-w.ShortSide)*long

	if n.low {
		score -= w.LowAlias
	}
	if matched < 2 && nq >= 2 && nn >= 2 {
		score = min(score, w.OneWordCap)
	}
	if nq == 1 || nn == 1 {
		score *= w.SingleWord
	}
	surnameMiss := len(q.surnames) > 0 && len(e.surnames) > 0 && !anySimilar(w, q.surnames, e.surnames)
	if surnameMiss {
		score -= w.SurnameMiss
	}
	delta, why := w.birth(q.person.BirthDate, e.entry.BirthDates, explain)
	score += delta
	score = max(0, min(1, score))
	if !explain {
		return score, nil
	}
	if len(inexact) == 0 && matched == nq && matched == nn {
		reasons = append(reasons, fmt.Sprintf("el nombre coincide con «%s» (sin distinguir acentos ni mayúsculas)", n.text))
	} else {
		reasons = append(reasons, fmt.Sprintf("el nombre se parece a «%s»: %d de %d palabras coinciden", n.text, matched, nq))
	}
	reasons = append(reasons, inexact...)
	if n.low {
		reasons = append(reasons, "es un alias de baja calidad según la lista")
	} else if n.text != e.entry.Name && n.text != e.entry.OriginalName {
		reasons = append(reasons, "coincide con un alias de la lista")
	}
	if n.text == e.entry.OriginalName && n.text != e.entry.Name {
		reasons = append(reasons, "coincide con el nombre en su escritura original, transliterado")
	}
	if reordered(usedQ) {
		reasons = append(reasons, "las palabras están en otro orden")
	}
	if missing := unused(n.tokens, usedN); len(missing) > 0 {
		reasons = append(reasons, "la lista tiene además: "+strings.Join(missing, " "))
	}
	var absent []string
	for i, j := range usedQ {
		if j < 0 {
			absent = append(absent, q.tokens[i].text)
		}
	}
	if len(absent) > 0 {
		reasons = append(reasons, "no están en ese nombre de la lista: "+strings.Join(absent, " "))
	}
	if matched < 2 && nq >= 2 && nn >= 2 {
		reasons = append(reasons, "solo una palabra en común")
	}
	if nq == 1 || nn == 1 {
		reasons = append(reasons, "un nombre de una sola palabra identifica poco")
	}
	if surnameMiss {
		reasons = append(reasons, "los apellidos no coinciden")
	}
	return score, append(reasons, why)
}

func anySimilar(w Weights, a, b []token) bool {
	for _, x := range a {
		for _, y := range b {
			if w.words(x, y).sim > 0 {
				return true
			}
		}
	}
	return false
}

// reordered reports whether the matched words appear in another order on the list.
func reordered(usedQ []int) bool {
	last := -1
	for _, j := range usedQ {
		if j < 0 {
			continue
		}
		if j < last {
			return true
		}
		last = j
	}
	return false
}

func unused(ts []token, used []bool) []string {
	var out []string
	for j, t := range ts {
		if !used[j] {
			out = append(out, t.text)
		}
	}
	return out
}

// birth is the birth date's part of the score: the tie-breaker between namesakes.
func (w Weights) birth(born time.Time, dates []BirthDate, explain bool) (float64, string) {
	if born.IsZero() {
		return 0, "sin fecha de nacimiento de la persona: no cuenta"
	}
	if len(dates) == 0 {
		return 0, "la lista no da fecha de nacimiento: no cuenta"
	}
	var dayBuf [10]byte
	day := string(born.AppendFormat(dayBuf[:0], time.DateOnly))
	year := born.Year()
	delta, how := -w.OtherYear, 0
	for _, d := range dates {
		if d.Date == day {
			delta, how = w.SameDay, 3
			break
		}
		from, to, ok := d.years()
		if !ok || year < from || year > to {
			continue
		}
		if d.Date == "" && how < 2 {
			delta, how = w.SameYear, 2
		} else if d.Date != "" && how < 1 {
			delta, how = -w.OtherDay, 1
		}
	}
	if !explain {
		return delta, ""
	}
	given := make([]string, len(dates))
	for i, d := range dates {
		given[i] = d.String()
	}
	list := strings.Join(given, ", ")
	switch how {
	case 3:
		return delta, "misma fecha de nacimiento: " + day
	case 2:
		return delta, fmt.Sprintf("el año de nacimiento %d cabe en el de la lista (%s)", year, list)
	case 1:
		return delta, fmt.Sprintf("mismo año de nacimiento pero otro día (lista: %s)", list)
	}
	return delta, fmt.Sprintf("otro año de nacimiento (persona: %d; lista: %s)", year, list)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// jaroWinkler is go-edlib's Jaro-Winkler similarity, computed without allocating for the ASCII
// words names fold to (the screening's hot path); other words go to go-edlib.
func jaroWinkler(a, b string) float64 {
	if len(a) > 64 || len(b) > 64 || !ascii(a) || !ascii(b) {
		return float64(edlib.JaroWinklerSimilarity(a, b))
	}
	if a == b {
		return 1
	}
	window := max(len(a), len(b))/2 - 1
	window = max(window, 0)
	var ma, mb [64]bool
	matches := 0
	for i := 0; i < len(a); i++ {
		lo, hi := max(0, i-window), min(len(b), i+window+1)
		for j := lo; j < hi; j++ {
			if !mb[j] && a[i] == b[j] {
				ma[i], mb[j] = true, true
				matches++
				break
			}
		}
	}
	if matches == 0 {
		return 0
	}
	transpositions, k := 0, 0
	for i := 0; i < len(a); i++ {
		if !ma[i] {
			continue
		}
		for !mb[k] {
			k++
		}
		if a[i] != b[k] {
			transpositions++
		}
		k++
	}
	m := float64(matches)
	jaro := (m/float64(len(a)) + m/float64(len(b)) + (m-float64(transpositions/2))/m) / 3
	prefix := 0
	for prefix < min(4, len(a), len(b)) && a[prefix] == b[prefix] {
		prefix++
	}
	return jaro + 0.1*float64(prefix)*(1-jaro)
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
