package identity

import (
	"strings"
	"time"
)

// curpParticles are left out of names when building a CURP (RENAPO's list of prepositions,
// conjunctions and contractions).
var curpParticles = map[string]bool{
	"DA": true, "DAS": true, "DE": true, "DEL": true, "DER": true, "DI": true, "DIE": true,
	"DD": true, "EL": true, "LA": true, "LOS": true, "LAS": true, "LE": true, "LES": true,
	"MAC": true, "MC": true, "VAN": true, "VON": true, "Y": true,
}

// commonFirstNames are skipped as the first of several given names (RENAPO's rule for
// María and José).
var commonFirstNames = map[string]bool{"MARIA": true, "MA": true, "JOSE": true, "J": true}

// inconvenient four-letter words get an X as their second letter (part of RENAPO's list).
var inconvenient = map[string]bool{
	"BACA": true, "BAKA": true, "BUEI": true, "BUEY": true, "CACA": true, "CACO": true,
	"CAGA": true, "CAGO": true, "CAKA": true, "CAKO": true, "COGE": true, "COGI": true,
	"COJA": true, "COJE": true, "COJI": true, "COJO": true, "COLA": true, "CULO": true,
	"FALO": true, "FETO": true, "GETA": true, "GUEI": true, "GUEY": true, "JETA": true,
	"JOTO": true, "KACA": true, "KACO": true, "KAGA": true, "KAGO": true, "KAKA": true,
	"KAKO": true, "KOGE": true, "KOGI": true, "KOJA": true, "KOJE": true, "KOJI": true,
	"KOJO": true, "KOLA": true, "KULO": true, "LILO": true, "LOCA": true, "LOCO": true,
	"LOKA": true, "LOKO": true, "MAME": true, "MAMO": true, "MEAR": true, "MEAS": true,
	"MEON": true, "MIAR": true, "MION": true, "MOCO": true, "MOKO": true, "MULA": true,
	"MULO": true, "NACA": true, "NACO": true, "PEDA": true, "PEDO": true, "PENE": true,
	"PIPI": true, "PITO": true, "POPO": true, "PUTA": true, "PUTO": true, "QULO": true,
	"RATA": true, "ROBA": true, "ROBE": true, "ROBO": true, "RUIN": true, "SENO": true,
	"TETA": true, "VACA": true, "VAGA": true, "VAGO": true, "VAKA": true, "VUEI": true,
	"VUEY": true, "WUEI": true, "WUEY": true,
}

// curpWords is a name as a CURP reads it: upper case, Ñ as X, accents dropped, other
// characters as X, particles left out.
func curpWords(s string) []string {
	s = strings.NewReplacer("ñ", "x", "Ñ", "X").Replace(s)
	var out []string
	for _, w := range strings.Fields(strings.ToUpper(Fold(s))) {
		w = strings.Map(func(r rune) rune {
			if r >= 'A' && r <= 'Z' {
				return r
			}
			return 'X'
		}, w)
		if !curpParticles[w] {
			out = append(out, w)
		}
	}
	return out
}

func isVowel(r byte) bool { return strings.IndexByte("AEIOU", r) >= 0 }

// internal is the first letter after the first that is a vowel (or not, with vowel false);
// X when there is none.
func internal(w string, vowel bool) byte {
	for i := 1; i < len(w); i++ {
		if isVowel(w[i]) == vowel {
			return w[i]
		}
	}
	return 'X'
}

func initial(w string) byte {
	if w == "" {
		return 'X'
	}
	return w[0]
}

// nameKey is what a CURP takes from a name: the four letters (positions 1-4) and the three
// internal consonants (positions 14-16), by RENAPO's main rules.
func nameKey(given, first, second string) (letters, consonants string) {
	name, surname1, surname2 := "", "", ""
	if names := curpWords(given); len(names) > 0 {
		name = names[0]
		if len(names) > 1 && commonFirstNames[name] {
			name = names[1]
		}
	}
	if firsts := curpWords(first); len(firsts) > 0 {
		surname1 = firsts[0]
	}
	if seconds := curpWords(second); len(seconds) > 0 {
		surname2 = seconds[0]
	}
	four := []byte{initial(surname1), internal(surname1, true), initial(surname2), initial(name)}
	if inconvenient[string(four)] {
		four[1] = 'X'
	}
	return string(four), string([]byte{internal(surname1, false), internal(surname2, false), internal(name, false)})
}

// CURPMatchesName tells whether a CURP's letters and internal consonants are those RENAPO's
// main rules give for the name. It is advice for a reviewer, not a verdict: RENAPO's rarer
// exceptions (and a name changed after the CURP was assigned) make a true CURP disagree.
// Pass the name as read (NameResult.Document) when the document gave only a full name.
func CURPMatchesName(curp string, doc DocumentName) bool {
	c := NormalizeCURP(curp)
	if !curpShape.MatchString(c) {
		return false
	}
	letters, consonants := nameKey(doc.GivenNames, doc.FirstSurname, doc.SecondSurname)
	// The second letter may have become an X to avoid an inconvenient word.
	sameLetters := c[0] == letters[0] && (c[1] == letters[1] || c[1] == 'X') && c[2:4] == letters[2:]
	return sameLetters && c[13:16] == consonants
}

// ExampleCURP builds a CURP that passes CheckCURP for the given name, birth date, sex (H, M
// or X) and state (a code of States or a state's name): RENAPO's letters and consonants, the
// differentiator 0 (born up to 1999) or A (from 2000), and the check digit. Real CURPs are
// assigned by RENAPO; this one is for tests and the development stand-in.
func ExampleCURP(given, first, second string, birth time.Time, sex, state string) string {
	letters, consonants := nameKey(given, first, second)
	sex = strings.ToUpper(strings.TrimSpace(sex))
	if sex != "H" && sex != "M" && sex != "X" {
		sex = "X"
	}
	code, ok := StateCode(state)
	if !ok {
		code = "NE"
	}
	differentiator := "0"
	if birth.Year() >= 2000 {
		differentiator = "A"
	}
	first17 := letters + birth.Format("060102") + sex + code + consonants + differentiator
	digit, _ := CURPCheckDigit(first17)
	return first17 + string(digit)
}
