package identity

import (
	"strings"
	"time"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// SampleDocument is an INE that a person registered as name would hold, as tests and the
// development stand-in need one: upper case as printed, the last two name words the surnames
// (particles kept with the word after them), born on birth in Jalisco, valid through the end of
// 2035, with a CURP that passes CheckCURP and CURPMatchesName. Not for real people.
func SampleDocument(name string, birth time.Time) perfilseguro.DocumentIdentity {
	given, first, second := NameParts(strings.ToUpper(name))
	return perfilseguro.DocumentIdentity{
		DocumentType: perfilseguro.DocumentINE, IssuingCountry: "MEX", IssuingState: "JALISCO",
		DocumentNumber: "IDMEX" + birth.Format("20060102") + "01", PersonalNumber: ExampleCURP(given, first, second, birth, "M", "JC"),
		GivenNames: given, FirstSurname: first, SecondSurname: second, DateOfBirth: birth, Sex: "F",
		Nationality: "MEX", IssueDate: time.Date(2024, 6, 10, 0, 0, 0, 0, time.UTC),
		ExpiryDate: time.Date(2035, 12, 31, 0, 0, 0, 0, time.UTC),
	}
}

// SplitName reads a typed name the way Mexicans write it, given names first: the last two name
// words are the surnames (particles kept with the word after them: "de la Garza"), the rest the
// given names. A guess for what to tell a provider, never a verdict (CompareNames decides).
func SplitName(name string) (given, surnames string) {
	g, first, second := NameParts(name)
	return g, strings.TrimSpace(first + " " + second)
}

// NameParts is SplitName with the two surnames apart: given names, first and second surname.
func NameParts(name string) (given, first, second string) {
	var groups, pending []string
	for _, w := range strings.Fields(name) {
		pending = append(pending, w)
		if particles[Fold(w)] {
			continue
		}
		groups = append(groups, strings.Join(pending, " "))
		pending = nil
	}
	if len(pending) > 0 && len(groups) > 0 {
		groups[len(groups)-1] += " " + strings.Join(pending, " ")
	}
	switch n := len(groups); {
	case n == 1:
		given = groups[0]
	case n == 2:
		given, first = groups[0], groups[1]
	case n > 2:
		given, first, second = strings.Join(groups[:n-2], " "), groups[n-2], groups[n-1]
	}
	return given, first, second
}
