// Package phone normalizes phone numbers to E.164 with libphonenumber (nyaruka/phonenumbers).
package phone

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nyaruka/phonenumbers"
)

// AllowedRegions are the sign-in form's countries (SPEC.md §5), MX first.
var AllowedRegions = []string{"MX", "US", "CA", "ES", "AR", "CO", "PE", "CL", "VE", "EC", "UY", "PY",
	"BO", "CR", "PA", "GT", "HN", "SV", "NI", "DO", "CU", "PR"}

// Errors, with the Spanish text users see.
var (
	ErrTooShort   = errors.New("El número de teléfono debe tener al menos 10 dígitos")
	ErrCharacters = errors.New("El número de teléfono solo debe contener números y opcionalmente un signo +")
	ErrInvalid    = errors.New("El número de teléfono no es válido")
	ErrCountry    = errors.New("El país de este número de teléfono no está permitido")
)

// clean removes the separators people type (spaces, dashes, dots, parentheses) and checks
// that what is left is digits with an optional leading +.
func clean(input string) (string, error) {
	s := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '-', '.', '(', ')', '\t', '\u00a0':
			return -1
		}
		return r
	}, strings.TrimSpace(input))
	digits := strings.TrimPrefix(s, "+")
	if digits == "" || strings.ContainsFunc(digits, func(r rune) bool { return r < '0' || r > '9' }) {
		return "", ErrCharacters
	}
	if len(digits) < 10 {
		return "", ErrTooShort
	}
	return s, nil
}

// NormalizeMX turns a Mexican number in any usual form (10 digits, 52…, +52…, the old
// mobile forms +52 1…, 044/045…) into +52 followed by 10 digits.
func NormalizeMX(input string) (string, error) {
	s, err := clean(input)
	if err != nil {
		return "", err
	}
	digits := strings.TrimPrefix(s, "+")
	switch {
	case len(digits) == 13 && (strings.HasPrefix(digits, "044") || strings.HasPrefix(digits, "045")):
		digits = digits[3:] // old domestic mobile prefixes
	case len(digits) == 13 && strings.HasPrefix(digits, "521"):
		digits = "52" + digits[3:] // old international mobile form
	}
	if len(digits) == 10 {
		digits = "52" + digits
	}
	if !strings.HasPrefix(digits, "52") || len(digits) != 12 {
		return "", ErrInvalid
	}
	num, err := phonenumbers.Parse("+"+digits, "MX")
	if err != nil || !phonenumbers.IsValidNumberForRegion(num, "MX") {
		return "", ErrInvalid
	}
	return phonenumbers.Format(num, phonenumbers.E164), nil
}

// Normalize turns a number from one of the allowed countries into E.164; numbers without a
// country code are read as Mexican.
func Normalize(input string) (string, error) {
	s, err := clean(input)
	if err != nil {
		return "", err
	}
	if !strings.HasPrefix(s, "+") || strings.HasPrefix(s, "+52") {
		return NormalizeMX(s)
	}
	num, err := phonenumbers.Parse(s, "")
	if err != nil || !phonenumbers.IsValidNumber(num) {
		return "", ErrInvalid
	}
	region := phonenumbers.GetRegionCodeForNumber(num)
	for _, r := range AllowedRegions {
		if r == region {
			return phonenumbers.Format(num, phonenumbers.E164), nil
		}
	}
	return "", fmt.Errorf("%w (%s)", ErrCountry, region)
}
