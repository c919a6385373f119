package aml

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Activity is a kind of real-estate operation the LFPIORPI names (article 17); its value is a
// storage key (aml_thresholds.activity), never renamed.
type Activity string

// The activities of a real-estate business.
const (
	Compraventa    Activity = "compraventa"    // selling or buying property (art. 17 fr. V)
	Intermediacion Activity = "intermediacion" // brokering a sale (art. 17 fr. V)
	Desarrollo     Activity = "desarrollo"     // development and pre-sale (art. 17 fr. V and V Bis)
	Arrendamiento  Activity = "arrendamiento"  // rent: compared month by month (art. 17 fr. XV)
)

// Activities lists every activity, in the order the panel shows them.
var Activities = []Activity{Compraventa, Intermediacion, Desarrollo, Arrendamiento}

var activityText = map[Activity]string{
	Compraventa:    "Compraventa",
	Intermediacion: "Intermediación",
	Desarrollo:     "Desarrollo o preventa",
	Arrendamiento:  "Arrendamiento",
}

// Valid reports whether a is one of Activities.
func (a Activity) Valid() bool { _, ok := activityText[a]; return ok }

// Text is the activity in Spanish, for people.
func (a Activity) Text() string { return activityText[a] }

// Centavos is an amount of Mexican pesos in hundredths: 113.14 pesos is Centavos(11314).
type Centavos int64

// String writes the amount as pesos with two decimals ("113.14", "-0.05").
func (c Centavos) String() string {
	sign, v := "", int64(c)
	if v < 0 {
		sign, v = "-", -v
	}
	return fmt.Sprintf("%s%d.%02d", sign, v/100, v%100)
}

// UMA is one year's Unidad de Medida y Actualización as INEGI published it.
type UMA struct {
	Year      int       // the year INEGI names it for
	ValidFrom time.Time // the first day it is in force (1 February of Year), a calendar date
	Daily     Centavos  // the daily value
	Source    string    // where the value was published (INEGI's communiqué, DOF), for the record
}

// Threshold is one activity's LFPIORPI thresholds, in UMA, from a date on.
type Threshold struct {
	Activity Activity
	// IdentificationUMA is the amount from which the client must be identified; 0 means always.
	IdentificationUMA int64
	// IdentificationStrict: only amounts strictly above the threshold ("superior a", as fr. XV
	// says of rent); otherwise the threshold itself counts ("igual o superior").
	IdentificationStrict bool
	// AvisoUMA is the amount from which an aviso must be filed; 0 means always.
	AvisoUMA int64
	// AvisoStrict is IdentificationStrict for the aviso threshold.
	AvisoStrict bool
	// Monthly: the amount compared is the monthly one (rent), not the operation's total.
	Monthly bool
	// ValidFrom is the first day these thresholds apply (the reform's entry into force).
	ValidFrom time.Time
	// Source names the legal text (law, article, fraction, DOF date), and any doubt about it.
	Source string
}

// Tables are the UMA and thresholds tables an operation is measured against.
type Tables struct {
	UMA        []UMA
	Thresholds []Threshold
}

// Result says what an operation requires and why.
type Result struct {
	Identify bool // the client must be identified
	Aviso    bool // an aviso must be filed
	// UMAYear is the year of the UMA in force on the operation's day; UMADaily its value.
	UMAYear  int
	UMADaily Centavos
	// IdentificationPesos and AvisoPesos are the thresholds in pesos with that UMA (0: always).
	IdentificationPesos Centavos
	AvisoPesos          Centavos
	// Threshold is the row that applied.
	Threshold Threshold
}

// Errors Requirement returns.
var (
	ErrActivity    = errors.New("aml: unknown activity")
	ErrAmount      = errors.New("aml: the amount must be positive")
	ErrNoUMA       = errors.New("aml: no UMA in force on that date")
	ErrNoThreshold = errors.New("aml: no thresholds for that activity on that date")
)

// Requirement measures an operation of activity for amount (monthly for rent) on date against
// tables: whether it requires identifying the client and an aviso. It uses the UMA in force on
// the date and the thresholds row in force on the date. date is read as a calendar day: its
// year, month and day as given (callers pass the day in Mexico City).
func Requirement(activity Activity, amount Centavos, date time.Time, t Tables) (Result, error) {
	if !activity.Valid() {
		return Result{}, fmt.Errorf("%w: %q", ErrActivity, activity)
	}
	if amount <= 0 {
		return Result{}, ErrAmount
	}
	day := Day(date)
	uma, ok := umaOn(t.UMA, day)
	if !ok {
		return Result{}, fmt.Errorf("%w: %s", ErrNoUMA, day.Format(time.DateOnly))
	}
	th, ok := thresholdOn(t.Thresholds, activity, day)
	if !ok {
		return Result{}, fmt.Errorf("%w: %s on %s", ErrNoThreshold, activity, day.Format(time.DateOnly))
	}
	r := Result{UMAYear: uma.Year, UMADaily: uma.Daily, Threshold: th,
		IdentificationPesos: uma.Daily * Centavos(th.IdentificationUMA),
		AvisoPesos:          uma.Daily * Centavos(th.AvisoUMA)}
	r.Identify = reaches(amount, r.IdentificationPesos, th.IdentificationStrict)
	r.Aviso = reaches(amount, r.AvisoPesos, th.AvisoStrict)
	return r, nil
}

// reaches compares an amount with a threshold in pesos (0: always reached).
func reaches(amount, threshold Centavos, strict bool) bool {
	if threshold == 0 {
		return true
	}
	if strict {
		return amount > threshold
	}
	return amount >= threshold
}

// Day is t's calendar day at midnight UTC, the form dates are compared in.
func Day(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// umaOn is the UMA with the latest ValidFrom on or before day.
func umaOn(values []UMA, day time.Time) (UMA, bool) {
	var best UMA
	found := false
	for _, u := range values {
		from := Day(u.ValidFrom)
		if from.After(day) || (found && !from.After(Day(best.ValidFrom))) {
			continue
		}
		best, found = u, true
	}
	return best, found
}

// thresholdOn is activity's row with the latest ValidFrom on or before day.
func thresholdOn(rows []Threshold, activity Activity, day time.Time) (Threshold, bool) {
	var best Threshold
	found := false
	for _, th := range rows {
		from := Day(th.ValidFrom)
		if th.Activity != activity || from.After(day) || (found && !from.After(Day(best.ValidFrom))) {
			continue
		}
		best, found = th, true
	}
	return best, found
}

// UMAValidFrom is the day a year's UMA takes effect: 1 February (INEGI's yearly update).
func UMAValidFrom(year int) time.Time { return time.Date(year, time.February, 1, 0, 0, 0, 0, time.UTC) }

// ParseCentavos reads an amount of pesos written with up to two decimals ("113.14", "113.1",
// "908000", "-3.50"); thousands separators and other forms are refused.
func ParseCentavos(s string) (Centavos, error) {
	m := pesosShape.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, fmt.Errorf("aml: %q is not an amount of pesos", s)
	}
	whole, err := strconv.ParseInt(m[2], 10, 64)
	if err != nil || whole > math.MaxInt64/100-1 {
		return 0, fmt.Errorf("aml: %q is too large", s)
	}
	frac := int64(0)
	if m[3] != "" {
		f := m[3] + strings.Repeat("0", 2-len(m[3]))
		frac = int64(f[0]-'0')*10 + int64(f[1]-'0')
	}
	v := Centavos(whole*100 + frac)
	if m[1] == "-" {
		v = -v
	}
	return v, nil
}

var pesosShape = regexp.MustCompile(`^(-?)([0-9]{1,15})(?:\.([0-9]{1,2}))?$`)
