-- +goose Up
-- Issue 53 item 4 (LFPIORPI): an operation's risk level and the cash paid in it.
--
-- cash_centavos: how much of the operation's amount (the monthly rent for arrendamiento) was paid
-- in cash (efectivo, metales preciosos); 0 when none. LFPIORPI art. 32 restricts cash in
-- real-estate operations; any cash raises the risk (aml.AssessRisk).
ALTER TABLE aml_operations
    ADD COLUMN cash_centavos bigint NOT NULL DEFAULT 0 CHECK (cash_centavos >= 0),
    ADD CONSTRAINT aml_operations_cash_le_amount CHECK (cash_centavos <= amount_centavos);

-- The weights of each risk factor and the cut-offs between levels, as data administrators keep
-- in the panel (PUT /api/admin/aml/risk-weights), each with its source or reason. The law asks
-- for a risk-based assessment (LFPIORPI art. 18 as reformed, DOF 16/07/2025; GAFI
-- Recomendaciones 1, 10 and 12) but fixes no numbers: the seeded weights are Perfil Seguro's
-- proposal and say so. kind 'factor': points added when the factor is present; kind 'corte':
-- the score from which the level applies (medio, alto; below medio: bajo).
CREATE TABLE aml_risk_weights (
    key        text PRIMARY KEY CHECK (key IN ('pep', 'coincidencia_posible', 'coincidencia_confirmada',
        'beneficiario_tercero', 'efectivo', 'monto_aviso', 'nacionalidad_extranjera', 'corte_medio', 'corte_alto')),
    kind       text NOT NULL CHECK (kind IN ('factor', 'corte')),
    weight     integer NOT NULL CHECK (weight BETWEEN 0 AND 1000),
    source     text NOT NULL CHECK (btrim(source) <> ''),
    updated_by bigint REFERENCES admins (id) ON DELETE SET NULL, -- NULL: seeded by this migration
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((kind = 'corte') = (key LIKE 'corte_%'))
);

INSERT INTO aml_risk_weights (key, kind, weight, source) VALUES
    ('pep', 'factor', 40,
     'GAFI Recomendación 12 (personas expuestas políticamente: debida diligencia reforzada); LFPIORPI art. 18 (reforma DOF 16/07/2025). Peso: propuesta de Perfil Seguro, por sí sola lleva la operación a riesgo medio.'),
    ('coincidencia_posible', 'factor', 30,
     'Una coincidencia posible en listas aún sin resolver por cumplimiento (LFPIORPI art. 18; GAFI Rec. 6). Peso: propuesta de Perfil Seguro; deja de contar cuando se descarta.'),
    ('coincidencia_confirmada', 'factor', 100,
     'Coincidencia confirmada con una lista (personas bloqueadas UIF, Consejo de Seguridad ONU): la operación se detiene y se presenta aviso en 24 horas (LFPIORPI art. 17 y 24 reformados). Peso: propuesta de Perfil Seguro, basta para riesgo alto.'),
    ('beneficiario_tercero', 'factor', 20,
     'La persona actúa por cuenta de un tercero (beneficiario controlador, LFPIORPI art. 3 fr. III y art. 18 fr. III). Peso: propuesta de Perfil Seguro.'),
    ('efectivo', 'factor', 25,
     'Pago en efectivo o metales preciosos: LFPIORPI art. 32 fr. I restringe el efectivo en operaciones con inmuebles; GAFI lo señala como tipología de riesgo. Peso: propuesta de Perfil Seguro.'),
    ('monto_aviso', 'factor', 15,
     'El monto alcanza el umbral de aviso (aml_thresholds, LFPIORPI art. 17 fr. V y XV). Peso: propuesta de Perfil Seguro.'),
    ('nacionalidad_extranjera', 'factor', 10,
     'Una persona de la operación con nacionalidad distinta a la mexicana según su identificación (GAFI Rec. 10 y 19, riesgo geográfico). Peso: propuesta de Perfil Seguro.'),
    ('corte_medio', 'corte', 25,
     'Desde este puntaje el riesgo es medio. Corte propuesto por Perfil Seguro: un factor relevante por sí solo (efectivo, coincidencia posible, PEP).'),
    ('corte_alto', 'corte', 50,
     'Desde este puntaje el riesgo es alto. Corte propuesto por Perfil Seguro: una coincidencia confirmada, o PEP con otro factor.');

-- +goose Down
DROP TABLE aml_risk_weights;
ALTER TABLE aml_operations DROP CONSTRAINT aml_operations_cash_le_amount, DROP COLUMN cash_centavos;
