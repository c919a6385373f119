package expediente

import (
	"fmt"
	"time"
	_ "time/tzdata" // Mexico City's zone even where the system has no zoneinfo (minimal images)
)

// mexicoCity is where the file's times are read: the businesses and the authority are there.
var mexicoCity = func() *time.Location {
	loc, err := time.LoadLocation("America/Mexico_City")
	if err != nil {
		panic(fmt.Sprintf("expediente: time zone: %v", err)) // embedded by time/tzdata: cannot fail
	}
	return loc
}()

// Date is a calendar day (a birth date, an expiry, the retention's end) with no time zone, so
// that no conversion can move it to the day before. In JSON: "2006-01-02".
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// DateOf is the calendar day of t where t is.
func DateOf(t time.Time) Date { return Date{t.Year(), t.Month(), t.Day()} }

// IsZero reports whether d is unset.
func (d Date) IsZero() bool { return d == Date{} }

// String is the ISO form, "2006-01-02" ("" when unset).
func (d Date) String() string {
	if d.IsZero() {
		return ""
	}
	return fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day)
}

// Spanish is the day as people in Mexico write it, dd/mm/aaaa ("—" when unset).
func (d Date) Spanish() string {
	if d.IsZero() {
		return "—"
	}
	return fmt.Sprintf("%02d/%02d/%04d", d.Day, d.Month, d.Year)
}

// ParseDate reads "2006-01-02" and refuses days that do not exist.
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return Date{}, fmt.Errorf("expediente: date %q: %w", s, err)
	}
	return DateOf(t), nil
}

// MarshalJSON writes "2006-01-02", or null when unset.
func (d Date) MarshalJSON() ([]byte, error) {
	if d.IsZero() {
		return []byte("null"), nil
	}
	return []byte(`"` + d.String() + `"`), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (d *Date) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		*d = Date{}
		return nil
	}
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return fmt.Errorf("expediente: date %s: not a string", s)
	}
	parsed, err := ParseDate(s[1 : len(s)-1])
	if err != nil {
		return err
	}
	*d = parsed
	return nil
}

// when is an instant in Mexico City time, dd/mm/aaaa HH:MM ("—" when unset).
func when(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.In(mexicoCity).Format("02/01/2006 15:04")
}
