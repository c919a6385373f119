// Package amlaviso writes an LFPIORPI aviso as the file a business takes to the SAT's portal
// (SPPLD, https://sppld.sat.gob.mx). The SAT publishes an XML schema per activity (inm.xsd for
// real estate, namespace http://www.uif.shcp.gob.mx/recepcion/inm), but we could not obtain the
// schema file itself to validate against, so the export is a CSV whose columns carry the schema's
// element names (mes_reportado, clave_sujeto_obligado, persona_aviso's nombre, apellido_paterno…)
// with one row per person reported; docs/aml-avisos.md lists every column, what fills it and what
// the business must still complete (its own RFC, the property's address, catalogue codes). It
// speaks no HTTP and touches no database.
package amlaviso

import (
	"bytes"
	"encoding/csv"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Columns are the CSV's header, in order (docs/aml-avisos.md describes each).
var Columns = []string{
	"referencia_aviso", "tipo_aviso", "mes_reportado", "fecha_limite", "clave_sujeto_obligado", "clave_actividad",
	"prioridad", "tipo_alerta", "descripcion_alerta",
	"id_operacion", "fecha_operacion", "tipo_operacion", "figura_so", "referencia_inmueble", "valor_pactado", "moneda",
	"monto_efectivo",
	"figura_cliente", "nombre", "apellido_paterno", "apellido_materno", "fecha_nacimiento", "rfc", "curp",
	"pais_nacionalidad", "actividad_economica", "domicilio",
	"actua_por_cuenta_de_tercero", "bc_nombre", "bc_fecha_nacimiento", "bc_curp_rfc", "bc_relacion",
	"pep", "pep_cargo",
	"estado", "folio_acuse",
}

// Aviso is what one export says. Dates are calendar days; DueAt an instant.
type Aviso struct {
	Reference   string    // our aviso's id, the referencia_aviso the business keeps
	Kind        string    // umbral, sospechosa, sin_operaciones
	Period      time.Time // the month reported (zero for sospechosa: the operation's month is used)
	DueAt       time.Time
	AlertText   string // sospechosa: why (the confirmed hit)
	Operation   *Operation
	People      []Person
	FiledFolio  string // the SAT's acknowledgement, when filed
	BusinessRFC string // clave_sujeto_obligado, when known ("" otherwise: the business completes it)
}

// Operation is the operation an aviso reports.
type Operation struct {
	ID           string
	Kind         string // aml.Activity
	KindText     string // in Spanish
	Date         time.Time
	BusinessRole string
	Reference    string // the property's reference
	Amount       string // pesos with two decimals
	Cash         string // pesos with two decimals
}

// Person is one person of the operation as the file kept them.
type Person struct {
	Role                                 string
	GivenNames, FirstSurname, SecondName string // from the document ("" when typed)
	FullName                             string // the name screened, when the document gives no parts
	BirthDate                            time.Time
	RFC, CURP, Nationality               string
	Occupation, Address                  string
	ForBeneficiary                       bool
	BeneficiaryName, BeneficiaryID       string
	BeneficiaryBirth                     time.Time
	BeneficiaryRelationship              string
	PEP                                  bool
	PEPPosition                          string
	Declared                             bool // a declaration was shared: the yes/no answers mean something
}

// activityKey is the SAT's clave_actividad: INM for sale, brokerage and development (fr. V),
// ARI for rent (fr. XV).
func activityKey(kind string) string {
	if kind == "arrendamiento" {
		return "ARI"
	}
	return "INM"
}

// CSV writes a as the SAT-portal CSV (UTF-8, comma-separated, header first).
func CSV(a Aviso) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.Write(Columns); err != nil {
		return nil, err
	}
	period := a.Period
	if period.IsZero() && a.Operation != nil {
		period = time.Date(a.Operation.Date.Year(), a.Operation.Date.Month(), 1, 0, 0, 0, 0, time.UTC)
	}
	head := map[string]string{
		"referencia_aviso": a.Reference, "tipo_aviso": a.Kind, "mes_reportado": period.Format("200601"),
		"fecha_limite": a.DueAt.Format(time.RFC3339), "clave_sujeto_obligado": a.BusinessRFC,
		"prioridad": "1", "tipo_alerta": "100", "estado": "pendiente", "folio_acuse": a.FiledFolio,
	}
	if a.FiledFolio != "" {
		head["estado"] = "presentado"
	}
	if a.Kind == "sospechosa" {
		head["prioridad"], head["tipo_alerta"], head["descripcion_alerta"] = "2", "9999", upper(a.AlertText)
	}
	if a.Operation != nil {
		o := a.Operation
		head["clave_actividad"] = activityKey(o.Kind)
		head["id_operacion"], head["fecha_operacion"], head["tipo_operacion"] = o.ID, o.Date.Format("20060102"), upper(o.KindText)
		head["figura_so"], head["referencia_inmueble"] = upper(o.BusinessRole), upper(o.Reference)
		head["valor_pactado"], head["moneda"], head["monto_efectivo"] = o.Amount, "MXN", o.Cash
	}
	people := a.People
	if len(people) == 0 {
		people = []Person{{}} // sin_operaciones: the report's one row
	}
	for _, p := range people {
		row := map[string]string{}
		for k, v := range head {
			row[k] = v
		}
		if p != (Person{}) {
			row["figura_cliente"] = upper(p.Role)
			row["nombre"], row["apellido_paterno"], row["apellido_materno"] = upper(p.GivenNames), upper(p.FirstSurname), upper(p.SecondName)
			if p.GivenNames == "" {
				row["nombre"] = upper(p.FullName)
			}
			row["fecha_nacimiento"] = day(p.BirthDate)
			row["rfc"], row["curp"], row["pais_nacionalidad"] = upper(p.RFC), upper(p.CURP), upper(p.Nationality)
			row["actividad_economica"], row["domicilio"] = upper(p.Occupation), upper(p.Address)
			if p.Declared {
				row["actua_por_cuenta_de_tercero"], row["pep"] = yes(p.ForBeneficiary), yes(p.PEP)
				row["bc_nombre"], row["bc_fecha_nacimiento"] = upper(p.BeneficiaryName), day(p.BeneficiaryBirth)
				row["bc_curp_rfc"], row["bc_relacion"], row["pep_cargo"] = upper(p.BeneficiaryID), upper(p.BeneficiaryRelationship), upper(p.PEPPosition)
			}
		}
		line := make([]string, len(Columns))
		for i, c := range Columns {
			line[i] = row[c]
		}
		if err := w.Write(line); err != nil {
			return nil, err
		}
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

// upper writes text as the SPPLD takes it: capitals without accents (Ñ kept), single spaces.
func upper(s string) string {
	s = strings.ToUpper(strings.Join(strings.Fields(s), " "))
	s = strings.ReplaceAll(s, "Ñ", "\x00")
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, s)
	if err != nil {
		out = s
	}
	return strings.ReplaceAll(out, "\x00", "Ñ")
}

func day(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format("20060102")
}

func yes(b bool) string {
	if b {
		return "SI"
	}
	return "NO"
}
