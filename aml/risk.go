package aml

import (
	"fmt"
	"slices"
	"strings"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// Risk: an operation's level (bajo, medio, alto) from documented factors. Each factor present adds
// its weight once; the score is compared with the cut-offs. Weights and cut-offs are data
// (aml_risk_weights, sql/migrations/0041_aml_risk.sql) that administrators keep with their
// source: the law asks for a risk-based assessment but fixes no numbers (docs/aml.md).

// RiskLevel is an operation's risk level.
type RiskLevel string

// The three levels.
const (
	RiskBajo  RiskLevel = "bajo"
	RiskMedio RiskLevel = "medio"
	RiskAlto  RiskLevel = "alto"
)

// The risk factors' keys (aml_risk_weights.key, kind 'factor'), never renamed.
const (
	RiskPEP                   = "pep"
	RiskPossibleHit           = "coincidencia_posible"
	RiskConfirmedHit          = "coincidencia_confirmada"
	RiskThirdPartyBeneficiary = "beneficiario_tercero"
	RiskCash                  = "efectivo"
	RiskAvisoAmount           = "monto_aviso"
	RiskForeignNationality    = "nacionalidad_extranjera"
	RiskCutMedium             = "corte_medio" // kind 'corte'
	RiskCutHigh               = "corte_alto"  // kind 'corte'
)

// RiskFactorKeys lists the factors in the order they are shown.
var RiskFactorKeys = []string{RiskConfirmedHit, RiskPossibleHit, RiskPEP, RiskCash, RiskThirdPartyBeneficiary,
	RiskAvisoAmount, RiskForeignNationality}

// RiskKeys lists every row of the weights table: the factors, then the cut-offs.
var RiskKeys = append(slices.Clone(RiskFactorKeys), RiskCutMedium, RiskCutHigh)

var riskKeyText = map[string]string{
	RiskConfirmedHit:          "Coincidencia confirmada en una lista",
	RiskPossibleHit:           "Coincidencia posible en listas sin resolver",
	RiskPEP:                   "Persona políticamente expuesta (PEP) declarada",
	RiskCash:                  "Pago en efectivo",
	RiskThirdPartyBeneficiary: "Actúa por cuenta de un tercero (beneficiario controlador)",
	RiskAvisoAmount:           "El monto alcanza el umbral de aviso",
	RiskForeignNationality:    "Nacionalidad extranjera",
	RiskCutMedium:             "Puntaje desde el que el riesgo es medio",
	RiskCutHigh:               "Puntaje desde el que el riesgo es alto",
}

// RiskKeyText is a weights row's key in Spanish ("" for an unknown key).
func RiskKeyText(key string) string { return riskKeyText[key] }

// RiskFacts are what is known of an operation when it is assessed.
type RiskFacts struct {
	PEP                   bool     // a person declared being (or being close to) a PEP
	PendingHits           int      // possible hits not yet ruled on
	ConfirmedHits         int      // hits the compliance officer confirmed
	ThirdPartyBeneficiary bool     // a person declared acting for someone else
	Cash                  Centavos // the amount paid in cash
	AvisoRequired         bool     // the amount reaches the aviso threshold (Requirement)
	ForeignNationals      int      // people whose document's nationality is not MEX
}

// RiskWeights are the points of each factor (by key) and the cut-offs between levels.
type RiskWeights struct {
	Factors map[string]int
	Medium  int // from this score the level is medio
	High    int // from this score the level is alto
}

// RiskFactor is one factor present in an operation, with its weight.
type RiskFactor struct {
	Key    string // one of RiskFactorKeys
	Text   string // in Spanish, for people
	Weight int
}

// RiskResult is an operation's risk: the level, the score and the factors that made it.
type RiskResult struct {
	Level   RiskLevel
	Score   int
	Factors []RiskFactor // in RiskFactorKeys' order; empty when none is present
}

// AssessRisk scores f with w: each factor present adds its weight once (a factor weighted 0 is
// still listed, it is a fact the officer should see); score ≥ High is alto, ≥ Medium medio,
// else bajo.
func AssessRisk(f RiskFacts, w RiskWeights) RiskResult {
	present := map[string]string{}
	if f.ConfirmedHits > 0 {
		present[RiskConfirmedHit] = plural(f.ConfirmedHits, "Coincidencia confirmada en una lista", "coincidencias confirmadas en listas")
	}
	if f.PendingHits > 0 {
		present[RiskPossibleHit] = plural(f.PendingHits, "Coincidencia posible en listas por resolver", "coincidencias posibles en listas por resolver")
	}
	if f.PEP {
		present[RiskPEP] = "Persona políticamente expuesta (PEP) declarada"
	}
	if f.Cash > 0 {
		present[RiskCash] = "Pago en efectivo por $" + f.Cash.String()
	}
	if f.ThirdPartyBeneficiary {
		present[RiskThirdPartyBeneficiary] = "Una persona actúa por cuenta de un tercero (beneficiario controlador)"
	}
	if f.AvisoRequired {
		present[RiskAvisoAmount] = "El monto alcanza el umbral de aviso"
	}
	if f.ForeignNationals > 0 {
		present[RiskForeignNationality] = plural(f.ForeignNationals, "Una persona con nacionalidad extranjera", "personas con nacionalidad extranjera")
	}
	r := RiskResult{Level: RiskBajo, Factors: []RiskFactor{}}
	for _, k := range RiskFactorKeys {
		text, ok := present[k]
		if !ok {
			continue
		}
		weight := w.Factors[k]
		r.Score += weight
		r.Factors = append(r.Factors, RiskFactor{Key: k, Text: text, Weight: weight})
	}
	switch {
	case r.Score >= w.High:
		r.Level = RiskAlto
	case r.Score >= w.Medium:
		r.Level = RiskMedio
	}
	return r
}

// plural is one's text for 1, else "n " + many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// ValidateRiskWeight checks a weights row as an administrator changes it, against the table as
// it is (current): an EINVALID error naming the bad field in Spanish. A factor weighs 0 to
// 1000; a cut-off is above 0, and medio stays below alto.
func ValidateRiskWeight(key string, weight int, source string, current RiskWeights) error {
	fields := map[string]string{}
	if !slices.Contains(RiskKeys, key) {
		fields["key"] = "Factor no válido: " + strings.Join(RiskKeys, ", ")
	}
	switch {
	case weight < 0 || weight > 1000:
		fields["weight"] = "El peso debe estar entre 0 y 1000"
	case key == RiskCutMedium && (weight < 1 || weight >= current.High):
		fields["weight"] = fmt.Sprintf("El corte de riesgo medio debe ser mayor que 0 y menor que el de riesgo alto (%d)", current.High)
	case key == RiskCutHigh && weight <= current.Medium:
		fields["weight"] = fmt.Sprintf("El corte de riesgo alto debe ser mayor que el de riesgo medio (%d)", current.Medium)
	}
	if strings.TrimSpace(source) == "" {
		fields["source"] = "Indica la fuente o la razón del valor"
	}
	if len(fields) == 0 {
		return nil
	}
	for _, k := range []string{"key", "weight", "source"} {
		if msg, ok := fields[k]; ok {
			return &perfilseguro.Error{Code: perfilseguro.EINVALID, Message: msg, Fields: fields}
		}
	}
	return nil
}
