package api

import (
	"context"
	"strings"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"

	"github.com/perfilseguro/perfilseguro/aml"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// The risk weights in the panel (issue 53 item 4), tab "Umbrales LFPIORPI": the points of each
// risk factor and the cut-offs between levels, each with its source or reason. Every admin role
// reads; administrador changes them, audited as admin.aml.risk_weight.

// AMLRiskWeightJSON is one row of the weights table.
type AMLRiskWeightJSON struct {
	Key       string    `json:"key" enum:"pep,coincidencia_posible,coincidencia_confirmada,beneficiario_tercero,efectivo,monto_aviso,nacionalidad_extranjera,corte_medio,corte_alto"`
	KeyText   string    `json:"keyText" description:"El factor o el corte en palabras"`
	Kind      string    `json:"kind" enum:"factor,corte" description:"factor: puntos que suma; corte: puntaje desde el que aplica el nivel"`
	Weight    int       `json:"weight"`
	Source    string    `json:"source"`
	UpdatedBy *int64    `json:"updatedBy,omitempty"` // the administrator; absent for the seeded values
	UpdatedAt time.Time `json:"updatedAt"`
}

// AMLRiskWeightRequest changes one row.
type AMLRiskWeightRequest struct {
	Key    string `json:"key" description:"El factor o el corte (corte_medio, corte_alto)"`
	Weight int    `json:"weight" description:"Puntos del factor (0 a 1000) o puntaje del corte"`
	Source string `json:"source" description:"La fuente o la razón del valor (obligatoria)"`
}

func (s *Server) mountAdminAMLRisk() {
	tag := option.Tags("Administración")
	fuego.Get(s.f, "/api/admin/aml/risk-weights", s.listAMLRiskWeights, tag,
		option.Summary("Ponderaciones del riesgo de las operaciones LFPIORPI (factores y cortes de nivel), con su fuente"))
	fuego.Put(s.f, "/api/admin/aml/risk-weights", s.putAMLRiskWeight, tag,
		option.Summary("Cambiar el peso de un factor de riesgo o un corte de nivel (solo administrador; la fuente es obligatoria)"))
}

func riskWeightJSON(w postgres.AMLRiskWeight) AMLRiskWeightJSON {
	return AMLRiskWeightJSON{Key: w.Key, KeyText: aml.RiskKeyText(w.Key), Kind: w.Kind, Weight: w.Weight, Source: w.Source,
		UpdatedBy: w.UpdatedBy, UpdatedAt: w.UpdatedAt}
}

func (s *Server) listAMLRiskWeights(c fuego.ContextNoBody) ([]AMLRiskWeightJSON, error) {
	r := c.Request()
	if _, err := s.requireRole(r, rolesAny...); err != nil {
		return nil, err
	}
	rows, err := s.store.AMLRiskWeights(r.Context())
	if err != nil {
		return nil, err
	}
	out := make([]AMLRiskWeightJSON, len(rows))
	for i, w := range rows {
		out[i] = riskWeightJSON(w)
	}
	return out, nil
}

func (s *Server) putAMLRiskWeight(c fuego.ContextWithBody[AMLRiskWeightRequest]) (AMLRiskWeightJSON, error) {
	r := c.Request()
	const action = "admin.aml.risk_weight"
	sess, req, err := adminRequest(s, c, guard{action: action, targetKind: "aml_risk_weight", roles: rolesManage})
	if err != nil {
		return AMLRiskWeightJSON{}, err
	}
	req.Source = strings.TrimSpace(req.Source)
	var after postgres.AMLRiskWeight
	err = s.adminAction(r, sess, action, "aml_risk_weight", func(ctx context.Context) (string, map[string]postgres.Change, error) {
		current, err := s.store.RiskWeights(ctx)
		if err != nil {
			return req.Key, nil, err
		}
		if err := aml.ValidateRiskWeight(req.Key, req.Weight, req.Source, current); err != nil {
			return req.Key, nil, err
		}
		before, a, err := s.store.PutAMLRiskWeight(ctx, req.Key, req.Weight, req.Source, sess.Admin.ID)
		after = a
		changes := map[string]postgres.Change{}
		amlChange(changes, "weight", true, before.Weight, a.Weight)
		amlChange(changes, "source", true, before.Source, a.Source)
		return req.Key, changes, err
	})
	if err != nil {
		return AMLRiskWeightJSON{}, err
	}
	return riskWeightJSON(after), nil
}
