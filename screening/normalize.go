package screening

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/perfilseguro/perfilseguro/identity"
)

// cyrillic is a Russian and Ukrainian romanisation close to ICAO 9303's (the one passports
// use), so that "Соколов" reads "sokolov". Neither golang.org/x/text nor a maintained Go
// library transliterates scripts (checked for issue 53), so this small table covers the scripts
// the UN list writes original names in that our people are likely to be compared with.
var cyrillic = map[rune]string{
	'а': "a", 'б': "b", 'в': "v", 'г': "g", 'ґ': "g", 'д': "d", 'е': "e", 'ё': "e", 'є': "ie",
	'ж': "zh", 'з': "z", 'и': "i", 'і': "i", 'ї': "i", 'й': "i", 'к': "k", 'л': "l", 'м': "m",
	'н': "n", 'о': "o", 'п': "p", 'р': "r", 'с': "s", 'т': "t", 'у': "u", 'ф': "f", 'х': "kh",
	'ц': "ts", 'ч': "ch", 'ш': "sh", 'щ': "shch", 'ъ': "", 'ы': "y", 'ь': "", 'э': "e",
	'ю': "iu", 'я': "ia",
}

// arabic maps Arabic letters to Latin consonants (and the long vowels alif, waw, ya). Arabic
// writes no short vowels, so "محمد" reads "mhmd": such a name is compared by its consonant
// skeleton (skeleton below), never by spelling.
var arabic = map[rune]string{
	'ا': "a", 'أ': "a", 'إ': "i", 'آ': "a", 'ب': "b", 'ت': "t", 'ث': "th", 'ج': "j", 'ح': "h",
	'خ': "kh", 'د': "d", 'ذ': "dh", 'ر': "r", 'ز': "z", 'س': "s", 'ش': "sh", 'ص': "s", 'ض': "d",
	'ط': "t", 'ظ': "z", 'ع': "", 'غ': "gh", 'ف': "f", 'ق': "q", 'ك': "k", 'ل': "l", 'م': "m",
	'ن': "n", 'ه': "h", 'ة': "a", 'و': "w", 'ي': "y", 'ى': "a", 'ء': "", 'ؤ': "", 'ئ': "",
	'پ': "p", 'چ': "ch", 'گ': "g", 'ژ': "zh", 'ک': "k", 'ی': "y",
}

// transliterate writes Cyrillic and Arabic letters in Latin letters; abjad reports whether any
// Arabic letter was seen (its tokens are then compared by skeleton).
func transliterate(s string) (out string, abjad bool) {
	var b strings.Builder
	for _, r := range s {
		lr := unicode.ToLower(r)
		if t, ok := cyrillic[lr]; ok {
			b.WriteString(t)
			continue
		}
		if t, ok := arabic[r]; ok {
			abjad = true
			b.WriteString(t)
			continue
		}
		b.WriteRune(r)
	}
	return b.String(), abjad
}

// dropped are words that carry no identity: the particles of compound names (as in identity)
// and the Arabic article written apart, plus honorifics lists put before names.
var dropped = map[string]bool{
	"de": true, "del": true, "la": true, "las": true, "los": true, "y": true, "e": true,
	"van": true, "von": true, "der": true, "den": true, "da": true, "das": true, "do": true,
	"dos": true, "di": true, "al": true, "el": true, "bin": true, "ibn": true, "bint": true,
	"mr": true, "mrs": true, "sr": true, "sra": true, "dr": true, "don": true, "dona": true,
}

// token is one normalised word of a name.
type token struct {
	text  string // folded, transliterated: "gonzalez"
	key   string // the index key: sound-alike spellings share it ("gonsales")
	abjad bool   // read from Arabic script: compare by skeleton only
	runes int    // length of text in runes
	id    uint32 // text's number in the index's dictionary; 0: a word no list has
	keyID uint32 // key's number in the dictionary; 0: a key no list has
}

// tokens normalises a name into its words: transliterated, accents folded with identity.Fold,
// the Arabic article "al-" split off, particles and honorifics dropped. Duplicates are kept
// once.
func tokens(name string) []token {
	latin, abjad := transliterate(name)
	folded := identity.Fold(latin)
	var out []token
	seen := map[string]bool{}
	for _, w := range strings.Fields(folded) {
		if dropped[w] {
			continue
		}
		if seen[w] {
			continue
		}
		seen[w] = true
		t := token{text: w, abjad: abjad, key: soundKey(w), runes: utf8.RuneCountInString(w)}
		if abjad {
			if strings.HasPrefix(w, "al") && len(w) > 4 {
				w = w[2:] // the article written joined: "الهاشمي" is al + hashimi
				t.text = w
			}
			t.key = "~" + skeleton(w)
		}
		out = append(out, t)
	}
	return out
}

// soundKey spells a folded word as it sounds in Spanish, so that the usual variants of one
// name share an index key: z/s/c(e,i) → s, v → b, ll/y → y, qu/k/c(a,o,u) → k, h silent, ph → f,
// th → t, doubled letters once. "González" and "Gonsales" both read "gonsales".
func soundKey(w string) string {
	r := []rune(w)
	var b strings.Builder
	var last rune
	emit := func(c rune) {
		if c != last {
			b.WriteRune(c)
		}
		last = c
	}
	for i := 0; i < len(r); i++ {
		c := r[i]
		next := rune(0)
		if i+1 < len(r) {
			next = r[i+1]
		}
		switch {
		case c == 'h':
			continue
		case c == 'z':
			emit('s')
		case c == 'c' && (next == 'e' || next == 'i'):
			emit('s')
		case c == 'c' && next == 'h':
			emit('x') // ch
			i++
		case c == 'c' || c == 'k' || c == 'q':
			emit('k')
			if c == 'q' && next == 'u' {
				i++
			}
		case c == 'v' || c == 'w':
			emit('b')
		case c == 'l' && next == 'l':
			emit('y')
			i++
		case c == 'p' && next == 'h':
			emit('f')
			i++
		case c == 'y' && i > 0 && i == len(r)-1:
			emit('i') // a final y sounds i: "Eloy", "Uruguay"
		case c == 'j':
			emit('j')
		default:
			emit(c)
		}
	}
	return b.String()
}

// skeleton is a word's consonants, vowels and h dropped, sound-alike consonants merged: how a
// name transliterated from Arabic ("mhmd") compares with its Latin spellings ("Mohammed",
// "Muhammad" all read "md").
func skeleton(w string) string {
	var b strings.Builder
	var last rune
	for _, c := range w {
		switch c {
		case 'a', 'e', 'i', 'o', 'u', 'y', 'w', 'h':
			continue
		case 'z':
			c = 's'
		case 'c', 'q':
			c = 'k'
		case 'v':
			c = 'b'
		}
		if c != last {
			b.WriteRune(c)
		}
		last = c
	}
	return b.String()
}
