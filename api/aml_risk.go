package api

import (
	"context"

	"github.com/perfilseguro/perfilseguro/aml"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// An operation's risk (issue 53 item 4): aml.AssessRisk over the facts the store gathers
// (postgres.AMLRiskFacts) and whether the amount reaches the aviso threshold, with the weights
// administrators keep (aml_risk_weights). Compliance data: shown only with the people
// (propietario, cumplimiento, and the partner API's secret key).

// OperationRiskFactor is one factor present in an operation.
type OperationRiskFactor struct {
	Key    string `json:"key" enum:"coincidencia_confirmada,coincidencia_posible,pep,efectivo,beneficiario_tercero,monto_aviso,nacionalidad_extranjera"`
	Text   string `json:"text" description:"El factor en palabras"`
	Weight int    `json:"weight" description:"Los puntos que suma (tabla de ponderaciones)"`
}

// OperationRisk is an operation's risk level and why.
type OperationRisk struct {
	Level   string                `json:"level" enum:"bajo,medio,alto"`
	Score   int                   `json:"score" description:"La suma de los factores presentes"`
	Factors []OperationRiskFactor `json:"factors" description:"Los factores presentes, del más grave al menos grave"`
}

// addRisk fills views[i].Risk for ops[i] (the same operations, in order), read in one pass.
func (s *Server) addRisk(ctx context.Context, ops []postgres.AMLOperation, views []OperationView) error {
	if len(views) == 0 {
		return nil
	}
	weights, err := s.store.RiskWeights(ctx)
	if err != nil {
		return err
	}
	facts, err := s.store.AMLRiskFacts(ctx, ops[:len(views)])
	if err != nil {
		return err
	}
	for i := range views {
		f := facts[ops[i].ID]
		f.AvisoRequired = views[i].Requirement != nil && views[i].Requirement.Aviso
		views[i].Risk = riskView(aml.AssessRisk(f, weights))
	}
	return nil
}

func riskView(r aml.RiskResult) *OperationRisk {
	out := &OperationRisk{Level: string(r.Level), Score: r.Score, Factors: []OperationRiskFactor{}}
	for _, f := range r.Factors {
		out.Factors = append(out.Factors, OperationRiskFactor{Key: f.Key, Text: f.Text, Weight: f.Weight})
	}
	return out
}
