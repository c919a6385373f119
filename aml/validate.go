package aml

import (
	"strings"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// Validate checks a UMA row as an administrator enters it: an EINVALID error naming each bad
// field in Spanish. The source is required: every value says where it was published.
func (u *UMA) Validate() error {
	u.Source = strings.TrimSpace(u.Source)
	fields := map[string]string{}
	if u.Year < 2016 || u.Year > 2100 { // the UMA exists since 2016
		fields["year"] = "El año debe estar entre 2016 y 2100"
	}
	if u.Daily <= 0 {
		fields["dailyValue"] = "El valor diario de la UMA debe ser mayor que cero"
	}
	if u.Source == "" {
		fields["source"] = "Indica la fuente del valor (comunicado del INEGI o publicación en el DOF)"
	}
	if u.ValidFrom.IsZero() && u.Year != 0 {
		u.ValidFrom = UMAValidFrom(u.Year)
	}
	return invalid(fields)
}

// Validate checks a thresholds row as an administrator enters it (EINVALID, fields in Spanish).
func (t *Threshold) Validate() error {
	t.Source = strings.TrimSpace(t.Source)
	fields := map[string]string{}
	if !t.Activity.Valid() {
		fields["activity"] = "Actividad no válida: compraventa, intermediacion, desarrollo o arrendamiento"
	}
	if t.IdentificationUMA < 0 {
		fields["identificationUma"] = "El umbral de identificación no puede ser negativo (0 significa siempre)"
	}
	if t.AvisoUMA <= 0 {
		fields["avisoUma"] = "El umbral de aviso debe ser mayor que cero"
	} else if t.IdentificationUMA > t.AvisoUMA {
		fields["identificationUma"] = "El umbral de identificación no puede ser mayor que el de aviso"
	}
	if t.ValidFrom.IsZero() {
		fields["validFrom"] = "Indica desde qué fecha aplica el umbral"
	}
	if t.Source == "" {
		fields["source"] = "Indica la fuente legal (ley, artículo, fracción y fecha del DOF)"
	}
	return invalid(fields)
}

// invalid is nil for no fields, else one EINVALID error carrying them all; its message is the
// first field's (in a fixed order) so a single problem reads as itself.
func invalid(fields map[string]string) error {
	if len(fields) == 0 {
		return nil
	}
	for _, k := range []string{"year", "activity", "dailyValue", "identificationUma", "avisoUma", "validFrom", "source"} {
		if msg, ok := fields[k]; ok {
			return &perfilseguro.Error{Code: perfilseguro.EINVALID, Message: msg, Fields: fields}
		}
	}
	return &perfilseguro.Error{Code: perfilseguro.EINVALID, Message: "Datos no válidos", Fields: fields}
}
