package aml_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/aml"
)

// The seeded weights (0041); the tests below also change them, as an administrator would.
func seededWeights() aml.RiskWeights {
	return aml.RiskWeights{Factors: map[string]int{aml.RiskPEP: 40, aml.RiskPossibleHit: 30, aml.RiskConfirmedHit: 100,
		aml.RiskThirdPartyBeneficiary: 20, aml.RiskCash: 25, aml.RiskAvisoAmount: 15, aml.RiskForeignNationality: 10},
		Medium: 25, High: 50}
}

func TestEachRiskFactorAddsItsWeight(t *testing.T) {
	t.Parallel()
	w := seededWeights()
	for _, c := range []struct {
		name  string
		facts aml.RiskFacts
		key   string
		score int
		level aml.RiskLevel
		text  string
	}{
		{"pep", aml.RiskFacts{PEP: true}, aml.RiskPEP, 40, aml.RiskMedio, "Persona políticamente expuesta (PEP) declarada"},
		{"one pending hit", aml.RiskFacts{PendingHits: 1}, aml.RiskPossibleHit, 30, aml.RiskMedio, "Coincidencia posible en listas por resolver"},
		{"three pending hits weigh once", aml.RiskFacts{PendingHits: 3}, aml.RiskPossibleHit, 30, aml.RiskMedio, "3 coincidencias posibles en listas por resolver"},
		{"confirmed hit", aml.RiskFacts{ConfirmedHits: 1}, aml.RiskConfirmedHit, 100, aml.RiskAlto, "Coincidencia confirmada en una lista"},
		{"beneficiary", aml.RiskFacts{ThirdPartyBeneficiary: true}, aml.RiskThirdPartyBeneficiary, 20, aml.RiskBajo,
			"Una persona actúa por cuenta de un tercero (beneficiario controlador)"},
		{"cash", aml.RiskFacts{Cash: 5000000}, aml.RiskCash, 25, aml.RiskMedio, "Pago en efectivo por $50000.00"},
		{"aviso amount", aml.RiskFacts{AvisoRequired: true}, aml.RiskAvisoAmount, 15, aml.RiskBajo, "El monto alcanza el umbral de aviso"},
		{"foreign", aml.RiskFacts{ForeignNationals: 1}, aml.RiskForeignNationality, 10, aml.RiskBajo, "Una persona con nacionalidad extranjera"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := aml.AssessRisk(c.facts, w)
			require.Equal(t, c.score, r.Score)
			require.Equal(t, c.level, r.Level)
			require.Equal(t, []aml.RiskFactor{{Key: c.key, Text: c.text, Weight: c.score}}, r.Factors)
		})
	}
}

func TestNoFactorIsLowRiskWithNoFactors(t *testing.T) {
	t.Parallel()
	r := aml.AssessRisk(aml.RiskFacts{}, seededWeights())
	require.Equal(t, aml.RiskResult{Level: aml.RiskBajo, Score: 0, Factors: []aml.RiskFactor{}}, r)
	// Cash of 0 and 0 foreign nationals are no factor.
	r = aml.AssessRisk(aml.RiskFacts{Cash: 0, ForeignNationals: 0, PendingHits: 0}, seededWeights())
	require.Empty(t, r.Factors)
}

func TestFactorsAddUpInTheirOrder(t *testing.T) {
	t.Parallel()
	r := aml.AssessRisk(aml.RiskFacts{PEP: true, AvisoRequired: true, ForeignNationals: 2, ConfirmedHits: 1}, seededWeights())
	require.Equal(t, 165, r.Score)
	require.Equal(t, aml.RiskAlto, r.Level)
	keys := []string{}
	for _, f := range r.Factors {
		keys = append(keys, f.Key)
	}
	require.Equal(t, []string{aml.RiskConfirmedHit, aml.RiskPEP, aml.RiskAvisoAmount, aml.RiskForeignNationality}, keys)
	require.Equal(t, "2 personas con nacionalidad extranjera", r.Factors[3].Text)
}

// The cut-offs are data: at, just below and above each, and moved by an administrator.
func TestTheCutOffsAreData(t *testing.T) {
	t.Parallel()
	w := seededWeights()
	// beneficiary 20 + foreign 10 = 30 (medio); beneficiary + aviso = 35; aviso + foreign = 25 (at medio).
	require.Equal(t, aml.RiskMedio, aml.AssessRisk(aml.RiskFacts{AvisoRequired: true, ForeignNationals: 1}, w).Level)
	require.Equal(t, aml.RiskBajo, aml.AssessRisk(aml.RiskFacts{ThirdPartyBeneficiary: true}, w).Level) // 20 < 25
	// PEP 40 + foreign 10 = 50: at alto; PEP + aviso = 55 alto; PEP alone 40 medio.
	require.Equal(t, aml.RiskAlto, aml.AssessRisk(aml.RiskFacts{PEP: true, ForeignNationals: 1}, w).Level)
	w.High = 51
	require.Equal(t, aml.RiskMedio, aml.AssessRisk(aml.RiskFacts{PEP: true, ForeignNationals: 1}, w).Level)
	w.Medium = 15
	require.Equal(t, aml.RiskMedio, aml.AssessRisk(aml.RiskFacts{AvisoRequired: true}, w).Level)
	// A weight of 0: the fact is listed but adds nothing.
	w.Factors[aml.RiskPEP] = 0
	r := aml.AssessRisk(aml.RiskFacts{PEP: true}, w)
	require.Equal(t, aml.RiskBajo, r.Level)
	require.Len(t, r.Factors, 1)
	require.Zero(t, r.Factors[0].Weight)
}
