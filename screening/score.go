package screening

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

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

// query is the screened person, normalised once.
type query struct {
	person   Person
	tokens   []token
	surnames []token
}

func queryOf(p Person, q []token) query {
	return query{person: p, tokens: q, surnames: tokens(p.Surnames)}
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
	if q.text == n.text {
		return wordMatch{1, "exacta"}
	}
	if q.key == n.key {
		return wordMatch{w.SoundAlike, "se escribe distinto y suena igual"}
	}
	if utf8.RuneCountInString(q.text) >= w.MinTypoRunes && utf8.RuneCountInString(n.text) >= w.MinTypoRunes {
		if jw := float64(edlib.JaroWinklerSimilarity(q.text, n.text)); jw >= w.MinJaroWinkler {
			return wordMatch{jw, "casi igual"}
		}
	}
	return wordMatch{}
}

// score compares the person with one name of an entry and qualifies it with the birth date.
func (w Weights) score(q query, n *indexedName, e *indexedEntry) (float64, []string) {
	nq, nn := len(q.tokens), len(n.tokens)
	// Greedy alignment: the most similar pair first, each word used once.
	type pair struct {
		i, j int
		m    wordMatch
	}
	var pairs []pair
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
	usedQ := make([]int, nq)
	usedN := make([]bool, nn)
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
		if p.m.how != "exacta" {
			inexact = append(inexact, fmt.Sprintf("«%s» y «%s»: %s", q.tokens[p.i].text, n.tokens[p.j].text, p.m.how))
		}
	}
	if matched == 0 {
		return 0, nil
	}
	covQ, covN := sum/float64(nq), sum/float64(nn)
	short, long := max(covQ, covN), min(covQ, covN)
	score := w.ShortSide*short + (1-w.ShortSide)*long

	if len(inexact) == 0 && matched == nq && matched == nn {
		reasons = append(reasons, fmt.Sprintf("el nombre coincide con «%s» (sin distinguir acentos ni mayúsculas)", n.text))
	} else {
		reasons = append(reasons, fmt.Sprintf("el nombre se parece a «%s»: %d de %d palabras coinciden", n.text, matched, nq))
	}
	reasons = append(reasons, inexact...)
	if n.low {
		reasons = append(reasons, "es un alias de baja calidad según la lista")
		score -= w.LowAlias
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
		score = min(score, w.OneWordCap)
		reasons = append(reasons, "solo una palabra en común")
	}
	if nq == 1 || nn == 1 {
		score *= w.SingleWord
		reasons = append(reasons, "un nombre de una sola palabra identifica poco")
	}
	if len(q.surnames) > 0 && len(e.surnames) > 0 && !anySimilar(w, q.surnames, e.surnames) {
		score -= w.SurnameMiss
		reasons = append(reasons, "los apellidos no coinciden")
	}
	delta, why := w.birth(q.person.BirthDate, e.entry.BirthDates)
	score += delta
	reasons = append(reasons, why)
	return max(0, min(1, score)), reasons
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
func (w Weights) birth(born time.Time, dates []BirthDate) (float64, string) {
	if born.IsZero() {
		return 0, "sin fecha de nacimiento de la persona: no cuenta"
	}
	if len(dates) == 0 {
		return 0, "la lista no da fecha de nacimiento: no cuenta"
	}
	day := born.Format(time.DateOnly)
	year := born.Year()
	sameYearOtherDay := false
	var given []string
	for _, d := range dates {
		given = append(given, d.String())
		if d.Date == day {
			return w.SameDay, "misma fecha de nacimiento: " + day
		}
	}
	for _, d := range dates {
		from, to, ok := d.years()
		if !ok || year < from || year > to {
			continue
		}
		if d.Date != "" {
			sameYearOtherDay = true
			continue
		}
		return w.SameYear, fmt.Sprintf("el año de nacimiento %d cabe en el de la lista (%s)", year, d.String())
	}
	if sameYearOtherDay {
		return -w.OtherDay, fmt.Sprintf("mismo año de nacimiento pero otro día (lista: %s)", strings.Join(given, ", "))
	}
	return -w.OtherYear, fmt.Sprintf("otro año de nacimiento (persona: %d; lista: %s)", year, strings.Join(given, ", "))
}
