package identity

import (
	"strings"
	"unicode"
)

// ProperName writes a name in proper case, as a person writes it: "MARÍA JOSÉ LÓPEZ
// HERNÁNDEZ" becomes "María José López Hernández" and "JUAN DE LA GARZA" becomes
// "Juan de la Garza". Particles stay lower case except as the first word; letters after a
// hyphen or an apostrophe are capitals ("Pérez-Gil", "O'Farrill"). Accents are kept as given.
func ProperName(name string) string {
	fields := strings.Fields(name)
	for i, f := range fields {
		lower := strings.ToLower(f)
		if i > 0 && particles[lower] {
			fields[i] = lower
			continue
		}
		fields[i] = capitalise(lower)
	}
	return strings.Join(fields, " ")
}

// capitalise makes upper case the first letter and every letter after a hyphen or apostrophe.
func capitalise(s string) string {
	var b strings.Builder
	up := true
	for _, r := range s {
		if up && unicode.IsLetter(r) {
			b.WriteRune(unicode.ToTitle(r))
			up = false
			continue
		}
		b.WriteRune(r)
		if r == '-' || r == '\'' || r == '’' {
			up = true
		}
	}
	return b.String()
}

// Display is the document's name in proper case, given names first:
// "María José López Hernández". With only a full name it keeps the document's order.
func (n DocumentName) Display() string {
	parts := []string{n.GivenNames, n.FirstSurname, n.SecondSurname}
	joined := strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
	if joined == "" {
		joined = n.FullName
	}
	return ProperName(joined)
}
