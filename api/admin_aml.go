package api

import (
	"context"
	"strconv"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/aml"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// The LFPIORPI tables in the panel (issue 53): the UMA by year and the thresholds by activity.
// Administrators change them, with the source of every value; soporte and finanzas may read.
// The arithmetic is aml.Requirement's; docs/aml.md says where each value comes from.

func (s *Server) mountAdminAML() {
	tag := option.Tags("Administración")
	fuego.Get(s.f, "/api/admin/aml/uma", s.listUMA, tag,
		option.Summary("Valores de la UMA por año (INEGI), con su fuente: los usan los umbrales LFPIORPI"))
	fuego.Put(s.f, "/api/admin/aml/uma", s.putUMA, tag,
		option.Summary("Registrar o corregir el valor de la UMA de un año (solo administrador; la fuente es obligatoria)"),
		option.Description("El valor diario se escribe en pesos con hasta dos decimales (\"117.31\"). Vale desde el 1 de febrero del año "+
			"salvo que validFrom diga otra fecha. Cada cambio queda en la Bitácora con el valor anterior."))
	fuego.Get(s.f, "/api/admin/aml/thresholds", s.listAMLThresholds, tag,
		option.Summary("Umbrales LFPIORPI por actividad (en UMA y en pesos con la UMA vigente hoy), con su fuente legal"))
	fuego.Put(s.f, "/api/admin/aml/thresholds", s.putAMLThreshold, tag,
		option.Summary("Registrar o corregir los umbrales de una actividad desde una fecha (solo administrador; la fuente es obligatoria)"))
	s.mountAdminAMLRisk()
}

// UMAJSON is one year's UMA.
type UMAJSON struct {
	Year int `json:"year"`
	// DailyValue is pesos per day with two decimals ("113.14"), a string so no client rounds it.
	DailyValue string    `json:"dailyValue" pattern:"^[0-9]+\\.[0-9]{2}$"`
	ValidFrom  string    `json:"validFrom" format:"date"`
	Source     string    `json:"source"`
	UpdatedBy  *int64    `json:"updatedBy,omitempty"` // the administrator; absent for the seeded values
	UpdatedAt  time.Time `json:"updatedAt"`
}

func umaJSON(u postgres.UMAValue) UMAJSON {
	return UMAJSON{Year: u.Year, DailyValue: u.Daily.String(), ValidFrom: u.ValidFrom.Format(time.DateOnly),
		Source: u.Source, UpdatedBy: u.UpdatedBy, UpdatedAt: u.UpdatedAt}
}

// UMARequest sets a year's UMA.
type UMARequest struct {
	Year       int    `json:"year"`
	DailyValue string `json:"dailyValue" pattern:"^[0-9]+(\\.[0-9]{1,2})?$"` // pesos, e.g. "117.31"
	ValidFrom  string `json:"validFrom,omitempty" format:"date"`             // default: 1 February of year
	Source     string `json:"source"`                                        // required: INEGI's publication
}

// AMLThresholdJSON is one activity's thresholds from a date.
type AMLThresholdJSON struct {
	Activity     string `json:"activity" enum:"compraventa,intermediacion,desarrollo,arrendamiento"`
	ActivityText string `json:"activityText"` // the activity in Spanish
	ValidFrom    string `json:"validFrom" format:"date"`
	// IdentificationUma: from this many UMA the client is identified (0: always).
	IdentificationUma    int64  `json:"identificationUma"`
	IdentificationStrict bool   `json:"identificationStrict"` // only strictly above ("superior a")
	AvisoUma             int64  `json:"avisoUma"`
	AvisoStrict          bool   `json:"avisoStrict"`
	Monthly              bool   `json:"monthly"` // compared with the monthly amount (rent)
	Source               string `json:"source"`
	// The thresholds in pesos with the UMA in force today (UmaYear); absent when no UMA is.
	UmaYear             int       `json:"umaYear,omitempty"`
	IdentificationPesos string    `json:"identificationPesos,omitempty"`
	AvisoPesos          string    `json:"avisoPesos,omitempty"`
	UpdatedBy           *int64    `json:"updatedBy,omitempty"`
	UpdatedAt           time.Time `json:"updatedAt"`
}

// AMLThresholdRequest sets an activity's thresholds from a date.
type AMLThresholdRequest struct {
	Activity             string `json:"activity" enum:"compraventa,intermediacion,desarrollo,arrendamiento"`
	ValidFrom            string `json:"validFrom" format:"date"`
	IdentificationUma    int64  `json:"identificationUma"`
	IdentificationStrict bool   `json:"identificationStrict,omitempty"`
	AvisoUma             int64  `json:"avisoUma"`
	AvisoStrict          bool   `json:"avisoStrict,omitempty"`
	Monthly              bool   `json:"monthly,omitempty"`
	Source               string `json:"source"` // required: law, article, fraction, DOF date
}

func (s *Server) listUMA(c fuego.ContextNoBody) ([]UMAJSON, error) {
	if _, err := s.requireRole(c.Request(), rolesAny...); err != nil {
		return nil, err
	}
	values, err := s.store.UMAValues(c.Request().Context())
	if err != nil {
		return nil, err
	}
	out := make([]UMAJSON, len(values))
	for i, u := range values {
		out[i] = umaJSON(u)
	}
	return out, nil
}

func (s *Server) putUMA(c fuego.ContextWithBody[UMARequest]) (UMAJSON, error) {
	r := c.Request()
	sess, req, err := adminRequest(s, c, guard{action: "admin.aml.uma", targetKind: "aml_uma", roles: rolesManage})
	if err != nil {
		return UMAJSON{}, err
	}
	u := aml.UMA{Year: req.Year, Source: req.Source}
	daily, err := aml.ParseCentavos(req.DailyValue)
	if err != nil {
		return UMAJSON{}, perfilseguro.FieldError("dailyValue", "Escribe el valor diario en pesos con hasta dos decimales, por ejemplo 117.31")
	}
	u.Daily = daily
	if req.ValidFrom != "" {
		if u.ValidFrom, err = time.Parse(time.DateOnly, req.ValidFrom); err != nil {
			return UMAJSON{}, perfilseguro.FieldError("validFrom", "La fecha de inicio debe tener el formato AAAA-MM-DD")
		}
	}
	if err := u.Validate(); err != nil {
		return UMAJSON{}, err
	}
	var after postgres.UMAValue
	err = s.adminAction(r, sess, "admin.aml.uma", "aml_uma", func(ctx context.Context) (string, map[string]postgres.Change, error) {
		before, a, err := s.store.PutUMA(ctx, u, sess.Admin.ID)
		after = a
		return strconv.Itoa(u.Year), umaChanges(before, a), err
	})
	if err != nil {
		return UMAJSON{}, err
	}
	return umaJSON(after), nil
}

// umaChanges is what a UMA write changed, for the Bitácora.
func umaChanges(before *postgres.UMAValue, after postgres.UMAValue) map[string]postgres.Change {
	var b postgres.UMAValue
	if before != nil {
		b = *before
	}
	changes := map[string]postgres.Change{}
	amlChange(changes, "dailyValue", before != nil, b.Daily.String(), after.Daily.String())
	amlChange(changes, "validFrom", before != nil, dateOrEmpty(b.ValidFrom), dateOrEmpty(after.ValidFrom))
	amlChange(changes, "source", before != nil, b.Source, after.Source)
	return changes
}

func (s *Server) listAMLThresholds(c fuego.ContextNoBody) ([]AMLThresholdJSON, error) {
	r := c.Request()
	if _, err := s.requireRole(r, rolesAny...); err != nil {
		return nil, err
	}
	rows, err := s.store.AMLThresholds(r.Context())
	if err != nil {
		return nil, err
	}
	tables, err := s.store.AMLTables(r.Context())
	if err != nil {
		return nil, err
	}
	today := s.now().In(perfilseguro.MexicoCity())
	out := make([]AMLThresholdJSON, len(rows))
	for i, th := range rows {
		out[i] = thresholdJSON(th)
		// The pesos each row means today, with today's UMA (for a row not yet or no longer in
		// force too: an administrator reads what it would mean).
		one := aml.Tables{UMA: tables.UMA, Thresholds: []aml.Threshold{{Activity: th.Activity, IdentificationUMA: th.IdentificationUMA,
			AvisoUMA: th.AvisoUMA, ValidFrom: time.Time{}}}}
		if res, err := aml.Requirement(th.Activity, 1, today, one); err == nil {
			out[i].UmaYear = res.UMAYear
			out[i].IdentificationPesos = res.IdentificationPesos.String()
			out[i].AvisoPesos = res.AvisoPesos.String()
		}
	}
	return out, nil
}

func thresholdJSON(th postgres.AMLThreshold) AMLThresholdJSON {
	return AMLThresholdJSON{Activity: string(th.Activity), ActivityText: th.Activity.Text(), ValidFrom: th.ValidFrom.Format(time.DateOnly),
		IdentificationUma: th.IdentificationUMA, IdentificationStrict: th.IdentificationStrict, AvisoUma: th.AvisoUMA,
		AvisoStrict: th.AvisoStrict, Monthly: th.Monthly, Source: th.Source, UpdatedBy: th.UpdatedBy, UpdatedAt: th.UpdatedAt}
}

func (s *Server) putAMLThreshold(c fuego.ContextWithBody[AMLThresholdRequest]) (AMLThresholdJSON, error) {
	r := c.Request()
	sess, req, err := adminRequest(s, c, guard{action: "admin.aml.threshold", targetKind: "aml_threshold", roles: rolesManage})
	if err != nil {
		return AMLThresholdJSON{}, err
	}
	th := aml.Threshold{Activity: aml.Activity(req.Activity), IdentificationUMA: req.IdentificationUma,
		IdentificationStrict: req.IdentificationStrict, AvisoUMA: req.AvisoUma, AvisoStrict: req.AvisoStrict,
		Monthly: req.Monthly, Source: req.Source}
	if req.ValidFrom != "" {
		if th.ValidFrom, err = time.Parse(time.DateOnly, req.ValidFrom); err != nil {
			return AMLThresholdJSON{}, perfilseguro.FieldError("validFrom", "La fecha de inicio debe tener el formato AAAA-MM-DD")
		}
	}
	if err := th.Validate(); err != nil {
		return AMLThresholdJSON{}, err
	}
	var after postgres.AMLThreshold
	target := string(th.Activity) + " " + th.ValidFrom.Format(time.DateOnly)
	err = s.adminAction(r, sess, "admin.aml.threshold", "aml_threshold", func(ctx context.Context) (string, map[string]postgres.Change, error) {
		before, a, err := s.store.PutAMLThreshold(ctx, th, sess.Admin.ID)
		after = a
		return target, thresholdChanges(before, a), err
	})
	if err != nil {
		return AMLThresholdJSON{}, err
	}
	return thresholdJSON(after), nil
}

// thresholdChanges is what a thresholds write changed, for the Bitácora.
func thresholdChanges(before *postgres.AMLThreshold, after postgres.AMLThreshold) map[string]postgres.Change {
	var b postgres.AMLThreshold
	if before != nil {
		b = *before
	}
	changes := map[string]postgres.Change{}
	had := before != nil
	amlChange(changes, "identificationUma", had, b.IdentificationUMA, after.IdentificationUMA)
	amlChange(changes, "identificationStrict", had, b.IdentificationStrict, after.IdentificationStrict)
	amlChange(changes, "avisoUma", had, b.AvisoUMA, after.AvisoUMA)
	amlChange(changes, "avisoStrict", had, b.AvisoStrict, after.AvisoStrict)
	amlChange(changes, "monthly", had, b.Monthly, after.Monthly)
	amlChange(changes, "source", had, b.Source, after.Source)
	return changes
}

// amlChange records field's change: every field of a new row, only the differing ones of an old.
func amlChange[T comparable](changes map[string]postgres.Change, field string, had bool, before, after T) {
	switch {
	case !had:
		changes[field] = postgres.Change{After: after}
	case before != after:
		changes[field] = postgres.Change{Before: before, After: after}
	}
}

func dateOrEmpty(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.DateOnly)
}
