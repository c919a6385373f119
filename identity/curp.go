package identity

import (
	"regexp"
	"strings"
	"time"
)

// CURPProblem names one thing wrong with a CURP; Text gives it in Spanish.
type CURPProblem string

// Problems CheckCURP reports. A CURP with ProblemFormat is not read further.
const (
	ProblemFormat     CURPProblem = "format"      // not 18 characters of the CURP's shape
	ProblemBirthDate  CURPProblem = "birth_date"  // positions 5-10 are not a calendar date
	ProblemCheckDigit CURPProblem = "check_digit" // the 18th character is not the one computed
	ProblemBirthDiff  CURPProblem = "birth_differs"
	ProblemSexDiff    CURPProblem = "sex_differs"
	ProblemStateDiff  CURPProblem = "state_differs"
)

var problemText = map[CURPProblem]string{
	ProblemFormat:     "La CURP no tiene el formato correcto",
	ProblemBirthDate:  "La fecha de la CURP no existe",
	ProblemCheckDigit: "El dígito verificador de la CURP no es correcto",
	ProblemBirthDiff:  "La fecha de nacimiento de la CURP no coincide con la de la identificación",
	ProblemSexDiff:    "El sexo de la CURP no coincide con el de la identificación",
	ProblemStateDiff:  "La entidad de nacimiento de la CURP no coincide con la de la identificación",
}

// Text is the problem in Spanish, for people.
func (p CURPProblem) Text() string { return problemText[p] }

// States are the two-letter codes of the state of birth in a CURP (positions 12-13), with
// NE for a person born abroad. Mexico City keeps DF.
var States = map[string]string{
	"AS": "Aguascalientes", "BC": "Baja California", "BS": "Baja California Sur",
	"CC": "Campeche", "CL": "Coahuila", "CM": "Colima", "CS": "Chiapas", "CH": "Chihuahua",
	"DF": "Ciudad de México", "DG": "Durango", "GT": "Guanajuato", "GR": "Guerrero",
	"HG": "Hidalgo", "JC": "Jalisco", "MC": "Estado de México", "MN": "Michoacán",
	"MS": "Morelos", "NT": "Nayarit", "NL": "Nuevo León", "OC": "Oaxaca", "PL": "Puebla",
	"QT": "Querétaro", "QR": "Quintana Roo", "SP": "San Luis Potosí", "SL": "Sinaloa",
	"SR": "Sonora", "TC": "Tabasco", "TS": "Tamaulipas", "TL": "Tlaxcala", "VZ": "Veracruz",
	"YN": "Yucatán", "ZS": "Zacatecas", "NE": "Nacido en el extranjero",
}

// StateCode is the CURP code of a state given by its code or its name ("Nuevo León", "CDMX",
// "Ciudad de Mexico"); ok is false when it is neither.
func StateCode(s string) (code string, ok bool) {
	if c := strings.ToUpper(strings.TrimSpace(s)); States[c] != "" {
		return c, true
	}
	folded := Fold(s)
	switch folded {
	case "cdmx", "distrito federal", "mexico city", "ciudad de mexico":
		return "DF", true
	case "mexico", "edomex", "estado de mexico":
		return "MC", true
	case "extranjero", "nacido en el extranjero", "born abroad":
		return "NE", true
	}
	for c, name := range States {
		if Fold(name) == folded || strings.HasPrefix(folded, Fold(name)+" ") {
			return c, true
		}
	}
	return "", false
}

// SexFromICAO turns the sex as travel documents and most providers write it (M male,
// F female, X unspecified; or the words) into the CURP's letter (H hombre, M mujer, X).
// It returns "" for anything else. Beware: "M" means male here and mujer in a CURP.
func SexFromICAO(s string) string {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "M", "MALE":
		return "H"
	case "F", "FEMALE":
		return "M"
	case "X":
		return "X"
	}
	return ""
}

// curpShape: 4 letters, yymmdd, sex, state, 3 internal consonants, differentiator, check digit.
var curpShape = regexp.MustCompile(`^[A-Z][AEIOUX][A-Z]{2}[0-9]{6}[HMX][A-Z]{2}[B-DF-HJ-NP-TV-Z]{3}[0-9A-Z][0-9]$`)

// curpAlphabet gives each character its value in the check digit.
const curpAlphabet = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"

// CURPCheckDigit computes the 18th character of a CURP from its first 17: each character's
// place in "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ" times 18, 17, ... 2, summed; the digit is
// 10 minus the sum's last digit, and 0 for 10. ok is false when the input is not 17
// characters of that alphabet.
func CURPCheckDigit(first17 string) (digit byte, ok bool) {
	chars := []rune(first17)
	if len(chars) != 17 {
		return 0, false
	}
	alphabet := []rune(curpAlphabet)
	sum := 0
	for i, c := range chars {
		value := -1
		for v, a := range alphabet {
			if a == c {
				value = v
				break
			}
		}
		if value < 0 {
			return 0, false
		}
		sum += value * (18 - i)
	}
	return byte('0' + (10-sum%10)%10), true
}

// NormalizeCURP is a CURP as stored and compared: upper case, without spaces.
func NormalizeCURP(curp string) string {
	return strings.ToUpper(strings.Join(strings.Fields(curp), ""))
}

// CURPResult is what CheckCURP found. The decoded fields are set when the format is right.
// It leaves the CURP itself out, so that logging a result never writes one.
type CURPResult struct {
	Valid    bool          // format, date and check digit are right
	Problems []CURPProblem // empty when the CURP is valid and agrees with the document
	Birth    time.Time     // the birth date it encodes (UTC midnight)
	Sex      string        // H, M or X
	State    string        // two-letter state code, NE born abroad
}

// OK is true when the CURP is valid and agrees with everything it was checked against.
func (r CURPResult) OK() bool { return r.Valid && len(r.Problems) == 0 }

// CheckCURP validates a CURP and its agreement with the document's birth date, sex (CURP
// letters: H, M or X; see SexFromICAO) and state of birth (a code of States or a state's
// name). A zero birth date or an empty sex or state is not checked.
func CheckCURP(curp string, birth time.Time, sex string, state string) CURPResult {
	var res CURPResult
	c := NormalizeCURP(curp)
	if !curpShape.MatchString(c) || States[c[11:13]] == "" {
		res.Problems = []CURPProblem{ProblemFormat}
		return res
	}
	res.Sex, res.State = c[10:11], c[11:13]
	// The differentiator is a digit for people born up to 1999 and a letter from 2000.
	century := "19"
	if c[16] >= 'A' {
		century = "20"
	}
	born, err := time.Parse("20060102", century+c[4:10])
	if err != nil {
		res.Problems = append(res.Problems, ProblemBirthDate)
	} else {
		res.Birth = born
	}
	if digit, _ := CURPCheckDigit(c[:17]); digit != c[17] {
		res.Problems = append(res.Problems, ProblemCheckDigit)
	}
	res.Valid = len(res.Problems) == 0
	if !birth.IsZero() && err == nil && !sameDay(born, birth) {
		res.Problems = append(res.Problems, ProblemBirthDiff)
	}
	if sex = strings.ToUpper(strings.TrimSpace(sex)); sex != "" && sex != res.Sex {
		res.Problems = append(res.Problems, ProblemSexDiff)
	}
	if state = strings.TrimSpace(state); state != "" {
		if code, _ := StateCode(state); code != res.State {
			res.Problems = append(res.Problems, ProblemStateDiff)
		}
	}
	return res
}

// sameDay compares calendar dates as written, whatever the time zones.
func sameDay(a, b time.Time) bool {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return ay == by && am == bm && ad == bd
}
