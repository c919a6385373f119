package aml

import (
	"fmt"
	"time"
	_ "time/tzdata" // Mexico City's zone even where the system has no zoneinfo
)

// Aviso deadlines (LFPIORPI art. 23 and 24 as reformed, DOF 16/07/2025): a threshold aviso and
// the monthly no-operations report are due by the 17th of the month after the one reported, at
// the end of that day in Mexico City (the SAT's portal closes at midnight, Mexico City time); a
// suspicious-operation aviso within 24 hours of the confirmation.

// MexicoCity is the time zone the SAT's deadlines are read in.
var MexicoCity = func() *time.Location {
	loc, err := time.LoadLocation("America/Mexico_City")
	if err != nil {
		panic(fmt.Sprintf("aml: time zone: %v", err)) // embedded by time/tzdata: cannot fail
	}
	return loc
}()

// AvisoDueDay is the day of the month after the reported one by which its aviso is due.
const AvisoDueDay = 17

// SuspiciousWindow is how long after a confirmed hit the suspicious-operation aviso is due.
const SuspiciousWindow = 24 * time.Hour

// Period is the month a calendar day belongs to: its first day, midnight UTC (aml_avisos.period).
func Period(day time.Time) time.Time {
	return time.Date(day.Year(), day.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// AvisoDue is when the aviso for the month of day (a calendar day, read as given) is due: the
// 17th of the next month at 23:59:59 in Mexico City (December's: 17 January of the next year).
func AvisoDue(day time.Time) time.Time {
	return time.Date(day.Year(), day.Month()+1, AvisoDueDay, 23, 59, 59, 0, MexicoCity)
}

// SuspiciousDue is when a suspicious-operation aviso raised at confirmedAt is due.
func SuspiciousDue(confirmedAt time.Time) time.Time { return confirmedAt.Add(SuspiciousWindow) }

// CompleteMonths lists the months from first's to the last month that ended before now (read in
// Mexico City), each as Period: the months a business may owe a no-operations report for.
func CompleteMonths(first, now time.Time) []time.Time {
	local := now.In(MexicoCity)
	current := time.Date(local.Year(), local.Month(), 1, 0, 0, 0, 0, time.UTC)
	var out []time.Time
	for m := Period(first); m.Before(current); m = m.AddDate(0, 1, 0) {
		out = append(out, m)
	}
	return out
}
