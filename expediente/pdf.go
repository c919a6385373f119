package expediente

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/signintech/gopdf"

	"github.com/perfilseguro/perfilseguro/aml"
)

// Title is the PDF's title.
const Title = "Expediente de identificación del cliente (LFPIORPI)"

// PDF is the file as a PDF in Spanish, after Validate: the sections Cliente, Identidad verificada
// y cómo se verificó, Declaraciones firmadas, Listas consultadas, Operación y umbrales, Riesgo,
// Avisos and Bitácora, every page numbered "Página n de N" with the generation time and the
// retention date in its footer.
func PDF(f File) ([]byte, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	l, err := newLayout(gopdf.PdfInfo{Title: Title + " — " + f.Person.DocumentName, Author: f.Business.Name,
		Creator: "Perfil Seguro", Producer: "Perfil Seguro (signintech/gopdf)", CreationDate: f.GeneratedAt})
	if err != nil {
		return nil, err
	}
	l.title(Title, fmt.Sprintf("%s · %s. Horas de la Ciudad de México.", f.Business.Name, f.Person.DocumentName))
	sections := []struct {
		name  string
		write func(*layout, File)
	}{
		{"Cliente", writeClient},
		{"Identidad verificada y cómo se verificó", writeVerification},
		{"Declaraciones firmadas", writeDeclarations},
		{"Listas consultadas", writeScreenings},
		{"Operación y umbrales", writeOperation},
		{"Riesgo", writeRisk},
		{"Avisos", writeAvisos},
		{"Bitácora", writeAudit},
	}
	for i, s := range sections {
		l.heading(i+1, s.name)
		s.write(l, f)
	}
	l.footers(
		fmt.Sprintf("%s — %s", Title, f.Person.DocumentName),
		fmt.Sprintf("Generado el %s (hora de la Ciudad de México) · Conservar hasta el %s (LFPIORPI, art. 18)",
			when(f.GeneratedAt), f.RetentionUntil.Spanish()))
	return l.bytes()
}

func writeClient(l *layout, f File) {
	p := f.Person
	l.field("Negocio", f.Business.Name)
	l.field("RFC del negocio", f.Business.RFC)
	l.field("Socio en Perfil Seguro", "#"+strconv.FormatInt(f.Business.PartnerID, 10))
	l.field("Nombre en el documento", p.DocumentName)
	l.field("Nombre(s)", p.GivenNames)
	l.field("Apellidos", p.Surnames)
	l.field("Fecha de nacimiento", p.BirthDate.Spanish())
	l.field("Sexo", p.Sex)
	l.field("Nacionalidad", p.Nationality)
	l.field("CURP", p.CURP)
	l.field("Documento", strings.Join(nonEmpty(p.Document.Type, p.Document.Issuer), " · "))
	l.field("Número del documento", p.Document.Number)
	l.field("Vigencia del documento", p.Document.Expiry.Spanish())
}

func writeVerification(l *layout, f File) {
	v := f.Verification
	l.field("Verificado el", when(v.At))
	l.field("Proveedor", v.Provider)
	l.field("Rostro contra la foto del documento", check(v.FaceMatch))
	l.field("Prueba de vida", check(v.Liveness))
	l.field("Autenticidad del documento", check(v.Document))
	match := v.NameMatch.Verdict
	for _, finding := range v.NameMatch.Findings {
		match += "\n• " + finding
	}
	l.field("Nombre declarado contra el documento", match)
	if len(v.Registries) == 0 {
		l.paragraph("No se consultaron registros oficiales.")
		return
	}
	l.subheading("Registros oficiales, campo por campo")
	rows := make([][]string, 0, len(v.Registries))
	for _, r := range v.Registries {
		rows = append(rows, []string{r.Registry, r.Field, yesNo(r.Matched, "Coincide", "No coincide"), r.Detail})
	}
	l.table([]column{{"Registro", 0.18}, {"Campo", 0.27}, {"Resultado", 0.17}, {"Detalle", 0.38}}, rows)
}

func writeDeclarations(l *layout, f File) {
	if len(f.Declarations) == 0 {
		l.paragraph("La persona no ha firmado ninguna declaración.")
		return
	}
	for _, d := range f.Declarations {
		a := d.Answers
		l.subheading(fmt.Sprintf("Versión %d, firmada el %s", d.Version, when(d.SignedAt)))
		l.field("Firma", d.Method.Text())
		l.field("Huella del texto firmado (SHA-256)", d.TextSHA256)
		l.field("Ocupación o actividad", a.Occupation)
		l.field("Domicilio", a.Address)
		l.field("RFC", a.RFC)
		if a.ForBeneficiary {
			l.field("Actúa", "Por cuenta de otra persona (beneficiario controlador)")
			if b := a.Beneficiary; b != nil {
				l.field("Beneficiario controlador", b.Name)
				l.field("Su fecha de nacimiento", b.BirthDate.Spanish())
				l.field("Su CURP o RFC", b.CURPOrRFC)
				l.field("Relación", b.Relationship)
			}
		} else {
			l.field("Actúa", "Por cuenta propia")
		}
		pep := "No"
		if a.PEP {
			pep = "Sí: " + a.PEPPosition
		}
		l.field("Persona políticamente expuesta", pep)
	}
}

func writeScreenings(l *layout, f File) {
	if len(f.Screenings) == 0 {
		l.paragraph("No se consultó ninguna lista.")
		return
	}
	for _, s := range f.Screenings {
		l.subheading(s.ListName)
		l.field("Versión", s.ListVersion)
		l.field("Importada el", when(s.ImportedAt))
		l.field("Consultada el", when(s.CheckedAt))
		if len(s.Candidates) == 0 {
			l.field("Resultado", "Sin coincidencias")
			continue
		}
		l.field("Resultado", fmt.Sprintf("%d posible(s) coincidencia(s)", len(s.Candidates)))
		rows := make([][]string, 0, len(s.Candidates))
		for _, c := range s.Candidates {
			ruling := "Pendiente de revisión"
			if r := c.Resolution; r != nil {
				ruling = fmt.Sprintf("%s por %s el %s. Motivo: %s", r.Decision.Text(), r.By, when(r.At), r.Reason)
			}
			rows = append(rows, []string{c.Name, strconv.FormatFloat(c.Score*100, 'f', 0, 64) + " %",
				strings.Join(c.Reasons, "; "), ruling})
		}
		l.table([]column{{"Candidato", 0.22}, {"Puntaje", 0.1}, {"Razones", 0.32}, {"Resolución", 0.36}}, rows)
	}
}

func writeOperation(l *layout, f File) {
	o, t := f.Operation, f.Operation.Thresholds
	amount := pesos(o.Amount)
	if o.Kind == aml.Arrendamiento {
		amount += " mensuales"
	}
	l.field("Tipo", o.Kind.Text())
	l.field("Monto", amount)
	l.field("Fecha", o.Date.Spanish())
	l.field("Inmueble (referencia)", o.Reference)
	l.field("Papel del cliente", o.Role)
	l.field("UMA aplicada", fmt.Sprintf("%d: %s diarios", t.UMAYear, pesos(t.UMADaily)))
	l.field("Umbral de identificación", threshold(t.Identification))
	l.field("Umbral de aviso", threshold(t.Aviso))
	l.field("¿Requiere identificación?", yesNo(t.Identify, "Sí", "No"))
	l.field("¿Requiere aviso?", yesNo(t.NeedsAviso, "Sí", "No"))
	l.field("Fuente de los umbrales", t.Source)
}

func writeRisk(l *layout, f File) {
	level := f.Risk.Level.Text()
	if level == "" {
		level = "Sin evaluar"
	}
	l.field("Nivel", level)
	if len(f.Risk.Factors) == 0 {
		l.paragraph("Ningún factor de riesgo aplicó.")
		return
	}
	rows := make([][]string, 0, len(f.Risk.Factors))
	for _, x := range f.Risk.Factors {
		rows = append(rows, []string{x.Description, strconv.Itoa(x.Weight)})
	}
	l.table([]column{{"Factor", 0.8}, {"Peso", 0.2}}, rows)
}

func writeAvisos(l *layout, f File) {
	if len(f.Avisos) == 0 {
		l.paragraph("La operación no tiene avisos.")
		return
	}
	rows := make([][]string, 0, len(f.Avisos))
	for _, a := range f.Avisos {
		filed := "Pendiente"
		if a.Filed != nil {
			filed = when(*a.Filed)
		}
		rows = append(rows, []string{a.Kind.Text(), when(a.Due), filed, a.Acknowledgement})
	}
	l.table([]column{{"Aviso", 0.3}, {"Vence", 0.2}, {"Presentado", 0.2}, {"Acuse", 0.3}}, rows)
}

func writeAudit(l *layout, f File) {
	if len(f.Audit) == 0 {
		l.paragraph("Sin registros.")
		return
	}
	rows := make([][]string, 0, len(f.Audit))
	for _, a := range f.Audit {
		rows = append(rows, []string{when(a.At), a.Actor, a.Action})
	}
	l.table([]column{{"Fecha y hora", 0.2}, {"Quién", 0.26}, {"Qué", 0.54}}, rows)
}

func check(c Check) string {
	s := yesNo(c.Passed, "Aprobada", "No aprobada")
	if c.Score > 0 {
		s += fmt.Sprintf(" (puntaje %s de 100)", strconv.FormatFloat(c.Score, 'f', -1, 64))
	}
	if c.Detail != "" {
		s += ". " + c.Detail
	}
	return s
}

func threshold(c aml.Centavos) string {
	if c == 0 {
		return "Siempre"
	}
	return pesos(c)
}

// pesos writes an amount as Mexico writes it: $1,234,567.89.
func pesos(c aml.Centavos) string {
	s := c.String()
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, cents, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return sign + "$" + b.String() + "." + cents
}

func yesNo(v bool, yes, no string) string {
	if v {
		return yes
	}
	return no
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
