-- +goose Up
-- Issue 53 (LFPIORPI): the two tables an operation is measured against (aml.Requirement). Both
-- are data administrators maintain from the panel (PUT /api/admin/aml/uma and /thresholds),
-- never constants in code: the UMA changes every year and a reform can move a threshold. Every
-- row names its source; a row the seed is unsure of says so in its source (docs/aml.md).

-- The Unidad de Medida y Actualización, as INEGI publishes it each January. A year's value is in
-- force from 1 February of that year to 31 January of the next (valid_from).
CREATE TABLE uma_values (
    year        integer PRIMARY KEY CHECK (year BETWEEN 2016 AND 2100),
    daily_value numeric(10, 2) NOT NULL CHECK (daily_value > 0), -- pesos per day
    valid_from  date NOT NULL,
    source      text NOT NULL CHECK (btrim(source) <> ''),
    updated_by  bigint REFERENCES admins (id) ON DELETE SET NULL, -- NULL: seeded by this migration
    updated_at  timestamptz NOT NULL DEFAULT now()
);

INSERT INTO uma_values (year, daily_value, valid_from, source) VALUES
    (2023, 103.74, '2023-02-01', 'INEGI, actualización del valor de la UMA publicada en enero de 2023: diario 103.74, mensual 3,153.70, anual 37,844.40; vigente desde el 1 de febrero de 2023'),
    (2024, 108.57, '2024-02-01', 'INEGI, actualización del valor de la UMA publicada en enero de 2024: diario 108.57, mensual 3,300.53, anual 39,606.36; vigente desde el 1 de febrero de 2024'),
    (2025, 113.14, '2025-02-01', 'INEGI, actualización del valor de la UMA publicada en enero de 2025: diario 113.14, mensual 3,439.46, anual 41,273.52; vigente desde el 1 de febrero de 2025'),
    (2026, 117.31, '2026-02-01', 'INEGI, comunicado del 8 de enero de 2026: diario 117.31, mensual 3,566.22, anual 42,794.64 (variación 3.69 %); vigente del 1 de febrero de 2026 al 31 de enero de 2027');

-- The LFPIORPI thresholds per real-estate activity, in UMA, from valid_from on (the row with the
-- latest valid_from on or before the operation's day applies). 0 = always. *_strict: only
-- amounts strictly above count ("superior a"); otherwise the threshold itself counts ("igual o
-- superior"). monthly: the amount compared is the monthly one (rent).
CREATE TABLE aml_thresholds (
    activity              text NOT NULL CHECK (activity IN ('compraventa', 'intermediacion', 'desarrollo', 'arrendamiento')),
    valid_from            date NOT NULL,
    identification_uma    integer NOT NULL CHECK (identification_uma >= 0),
    identification_strict boolean NOT NULL DEFAULT false,
    aviso_uma             integer NOT NULL CHECK (aviso_uma > 0),
    aviso_strict          boolean NOT NULL DEFAULT false,
    monthly               boolean NOT NULL DEFAULT false,
    source                text NOT NULL CHECK (btrim(source) <> ''),
    updated_by            bigint REFERENCES admins (id) ON DELETE SET NULL, -- NULL: seeded by this migration
    updated_at            timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (activity, valid_from),
    CHECK (identification_uma <= aviso_uma)
);

INSERT INTO aml_thresholds (activity, valid_from, identification_uma, identification_strict, aviso_uma, aviso_strict, monthly, source) VALUES
    ('compraventa', '2025-07-17', 0, false, 8025, false, false,
     'LFPIORPI art. 17 fr. V, texto reformado por el Decreto publicado en el DOF el 16/07/2025 (vigente desde el 17/07/2025): identificación siempre; aviso cuando la operación es igual o superior a 8,025 UMA.'),
    ('intermediacion', '2025-07-17', 0, false, 8025, false, false,
     'LFPIORPI art. 17 fr. V (intermediación en la transmisión de la propiedad), DOF 16/07/2025: identificación siempre; aviso igual o superior a 8,025 UMA.'),
    ('desarrollo', '2025-07-17', 0, false, 8025, false, false,
     'LFPIORPI art. 17 fr. V (construcción o desarrollo) y fr. V Bis (recepción de recursos para desarrollos inmobiliarios, añadida por el Decreto del DOF 16/07/2025): aviso igual o superior a 8,025 UMA. POR CONFIRMAR contra el texto del DOF: si la fr. V Bis fija también 8,025 UMA como umbral de identificación (hoy: identificación siempre, como la fr. V).'),
    ('arrendamiento', '2025-07-17', 1605, true, 3210, false, true,
     'LFPIORPI art. 17 fr. XV (derechos personales de uso o goce de inmuebles), DOF 16/07/2025: identificación cuando el valor mensual es superior a 1,605 UMA; aviso cuando es igual o superior a 3,210 UMA mensuales.');

-- +goose Down
DROP TABLE aml_thresholds;
DROP TABLE uma_values;
