package identity

import "time"

// LegalAge is the age from which a person may sign a real-estate contract in Mexico.
const LegalAge = 18

// AgeOn is a person's age in whole years on a day, counted on calendar dates as written
// (pass both in the same time zone, Mexico City's for a check made in Mexico). Someone born on
// 29 February turns a year older on 1 March in common years.
func AgeOn(birth, day time.Time) int {
	by, bm, bd := birth.Date()
	dy, dm, dd := day.Date()
	age := dy - by
	if dm < bm || dm == bm && dd < bd {
		age--
	}
	return age
}

// DocumentDates is what the dates on an ID say on the day of the check.
type DocumentDates struct {
	Age      int  // whole years on the day of the check
	UnderAge bool // younger than LegalAge
	Expired  bool // the ID's expiry date was before the day of the check
}

// CheckDocumentDates reads an ID's birth and expiry dates on the day of the check. The ID is
// valid through its expiry date; a zero expiry (none printed) never expires.
func CheckDocumentDates(birth, expiry, day time.Time) DocumentDates {
	age := AgeOn(birth, day)
	return DocumentDates{
		Age:      age,
		UnderAge: age < LegalAge,
		Expired:  !expiry.IsZero() && dateOnly(expiry).Before(dateOnly(day)),
	}
}

// ValidUntil is the end of a validation: the plan's end, or the ID's expiry when it comes
// first. A zero expiry leaves the plan's end.
func ValidUntil(planEnd, expiry time.Time) time.Time {
	if expiry.IsZero() || planEnd.Before(expiry) {
		return planEnd
	}
	return expiry
}

// ExpiryFromYear is the last day of a year, as the INE prints its validity ("VIGENCIA 2031").
func ExpiryFromYear(year int, loc *time.Location) time.Time {
	return time.Date(year, time.December, 31, 0, 0, 0, 0, loc)
}

func dateOnly(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
