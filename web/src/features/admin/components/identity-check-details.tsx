import { Badge, type BadgeVariant } from '@/components/ui/badge'
import type { IdentityCheck, IdentityDocument, IdentityVerdict, RegistryResult } from '../api/identity-reviews'

/** The verdicts in Spanish, with their badge colour. */
export const VERDICT_LABEL: Record<IdentityVerdict, [string, BadgeVariant]> = {
  match: ['Coincide', 'success'],
  near: ['En revisión', 'warning'],
  no_document: ['Sin datos del documento', 'warning'],
  mismatch: ['El nombre no coincide', 'destructive'],
  duplicate: ['Identificación de otro perfil', 'destructive'],
  expired_document: ['Identificación vencida', 'destructive'],
  under_age: ['Menor de edad', 'destructive'],
}

const DOCUMENT_TYPE: Record<string, string> = {
  ine: 'INE',
  passport: 'Pasaporte',
  driving_licence: 'Licencia de conducir',
  residence_permit: 'Tarjeta de residente',
}

const REGISTRY: Record<string, string> = { mex_curp: 'RENAPO (CURP)', mex_ine: 'INE (lista nominal)' }

const REGISTRY_FIELD: Record<string, string> = {
  full_name: 'Nombre completo',
  date_of_birth: 'Fecha de nacimiento',
  identification_number: 'Número de identificación',
  curp: 'CURP',
}

const REGISTRY_RESULT: Record<RegistryResult['result'], [string, BadgeVariant]> = {
  match: ['Coincide', 'success'],
  partial_match: ['Coincide en parte', 'warning'],
  no_match: ['No coincide', 'destructive'],
  not_available: ['No disponible', 'outline'],
}

/** A document's date (YYYY-MM-DD) as dd/mm/yyyy, without moving it across time zones. */
export function formatDocumentDate(date: string | null): string {
  if (!date) return '—'
  const [y, m, d] = date.split('-')
  return `${d}/${m}/${y}`
}

/** The name as printed on the document: given names and surnames, else the full name. */
export function printedName(doc: IdentityDocument): string {
  const parts = [doc.givenNames, doc.firstSurname, doc.secondSurname].filter(Boolean)
  return parts.length ? parts.join(' ') : doc.fullName || '—'
}

function score(v: number | null): string {
  return v === null ? '—' : v.toLocaleString('es-MX', { maximumFractionDigits: 2 })
}

/** Label and value rows. */
function Facts({ rows }: { rows: [string, string][] }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-base-content/70">{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  )
}

/** What a check read and found: the document (CURP and number masked by the server), the findings, the registries and the scores. */
export function IdentityCheckDetails({ check }: { check: IdentityCheck }) {
  const doc = check.document
  const curp = check.curpValid === null ? 'Sin CURP en el documento' : check.curpValid ? 'Válida' : 'No válida'
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <section className="space-y-2" aria-label="Documento">
        <h4 className="font-semibold">Documento</h4>
        {doc ? (
          <Facts
            rows={[
              ['Tipo', DOCUMENT_TYPE[doc.type] ?? (doc.type || '—')],
              ['País / estado', [doc.issuingCountry, doc.issuingState].filter(Boolean).join(' · ') || '—'],
              ['Nombre impreso', printedName(doc)],
              ['Nacimiento', `${formatDocumentDate(doc.birthDate)}${check.age !== null ? ` (${check.age} años)` : ''}`],
              ['Vigencia', formatDocumentDate(doc.expiryDate)],
              ['Nacionalidad', doc.nationality || '—'],
              ['CURP', `${doc.curp ?? '—'} · ${curp}`],
              ['Número', doc.number ?? '—'],
            ]}
          />
        ) : (
          <p className="text-sm text-base-content/70">La verificación no trae los datos del documento.</p>
        )}
      </section>
      <section className="space-y-2" aria-label="Hallazgos">
        <h4 className="font-semibold">Hallazgos</h4>
        {check.findings.length ? (
          <ul className="list-disc space-y-1 pl-5 text-sm">
            {check.findings.map((f) => (
              <li key={f.code}>{f.text}</li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-base-content/70">Sin hallazgos.</p>
        )}
        <h4 className="pt-2 font-semibold">Registros oficiales</h4>
        {check.registry.length ? (
          <table className="table table-xs" aria-label="Registros oficiales">
            <tbody>
              {check.registry.map((r) => {
                const [label, variant] = REGISTRY_RESULT[r.result] ?? [r.result, 'outline']
                return (
                  <tr key={`${r.registry}-${r.field}`}>
                    <td>{REGISTRY[r.registry] ?? r.registry}</td>
                    <td>{REGISTRY_FIELD[r.field] ?? r.field}</td>
                    <td>
                      <Badge variant={variant}>{label}</Badge>
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        ) : (
          <p className="text-sm text-base-content/70">El proveedor no consultó registros oficiales.</p>
        )}
        <h4 className="pt-2 font-semibold">Puntajes</h4>
        <Facts
          rows={[
            ['Nombre', check.nameScore === null ? '—' : `${Math.round(check.nameScore * 100)} %`],
            ['Rostro', score(check.scores.faceMatch)],
            ['Prueba de vida', score(check.scores.liveness)],
            ['Documento', score(check.scores.document)],
            ['General', score(check.scores.overall)],
          ]}
        />
      </section>
    </div>
  )
}
