import { Badge, type BadgeVariant } from '@/components/ui/badge'
import { formatDateMx, formatDateTimeMx } from '@/lib/format'
import { useSignedOutOn } from '../api/get-console-me'
import { useSessions } from '../api/sessions'
import { CLAIM_LABEL, LEVEL_LABEL, SESSION_STATUS, SHARED_GONE } from '../labels'
import type { Mode, VerificationSession } from '../types'
import { ConsoleTable, PagedTableFooter } from './table-message'
import { TabHeading } from './tab-heading'

const STATUS_BADGE: Record<VerificationSession['status'], BadgeVariant> = {
  created: 'outline',
  in_progress: 'secondary',
  completed: 'success',
  declined: 'warning',
  expired: 'outline',
  canceled: 'outline',
}

/** A shared value as text (a validity date in Mexico City time). */
function sharedValue(claim: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—'
  if (claim === 'validUntil' && typeof value === 'string') return formatDateMx(value)
  return String(value)
}

/** The shared claims in the order they were asked for (the stored object has its own order). */
function sharedInOrder(s: VerificationSession): [string, unknown][] {
  const shared = s.shared ?? {}
  const asked = s.claims.filter((c) => c in shared)
  return [...asked, ...Object.keys(shared).filter((c) => !asked.includes(c))].map((c) => [c, shared[c]])
}

/** What a session without shared data says (or why what was shared is gone). */
function nothingShared(s: VerificationSession): string {
  if (s.sharedReason) return SHARED_GONE[s.sharedReason]
  const open = s.status === 'created' || s.status === 'in_progress'
  const asked = s.claims.map((c) => CLAIM_LABEL[c] ?? c).join(', ')
  return `${open ? 'Aún nada' : 'Nada'}${asked ? ` (pediste: ${asked})` : ''}`
}

/** "Sesiones": the platform's verification sessions of the mode, with only what each person shared. */
export function SessionsTab({ mode }: { mode: Mode }) {
  const sessions = useSessions(mode)
  useSignedOutOn(sessions.error)
  const rows = sessions.data?.pages.flatMap((p) => p.data) ?? []

  return (
    <section className="space-y-4" aria-labelledby="sessions-title">
      <TabHeading id="sessions-title" title={`Sesiones de verificación ${mode === 'test' ? 'de prueba' : 'de producción'}`}>
        Solo ves lo que cada persona decidió compartir con tu plataforma, y solo si completó la sesión.
      </TabHeading>
      <ConsoleTable
        columns={['Referencia', 'Estado', 'Nivel', 'Datos compartidos', 'Fechas']}
        query={sessions}
        errorText="No pudimos cargar tus sesiones."
        isEmpty={rows.length === 0}
        empty={<>Aún no hay sesiones {mode === 'test' ? 'de prueba' : 'de producción'}. Tu servidor las abre con POST /api/partner/v1/verification-sessions.</>}
      >
        {rows.map((s) => (
          <tr key={s.id} data-testid="session-row">
            <td>
              <div className="font-medium break-all">{s.reference}</div>
              <code className="font-mono text-xs text-base-content/60">{s.id}</code>
            </td>
            <td>
              <Badge variant={STATUS_BADGE[s.status]} className="badge-sm whitespace-nowrap">
                {SESSION_STATUS[s.status]}
              </Badge>
            </td>
            <td className="whitespace-nowrap">{LEVEL_LABEL[s.requiredLevel] ?? s.requiredLevel}</td>
            <td className="min-w-64">
              {s.shared ? (
                <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-sm">
                  {sharedInOrder(s).map(([claim, value]) => (
                    <div key={claim} className="contents">
                      <dt className="whitespace-nowrap text-base-content/60">{CLAIM_LABEL[claim] ?? claim}</dt>
                      <dd className="whitespace-nowrap">{sharedValue(claim, value)}</dd>
                    </div>
                  ))}
                </dl>
              ) : (
                <span className="text-sm text-base-content/60">{nothingShared(s)}</span>
              )}
              {s.shared && s.amlDeclaration && (
                <p className="mt-1 text-sm" data-testid="session-aml-declaration">
                  Declaración de conocimiento del cliente: versión {s.amlDeclaration.version}, firmada {formatDateTimeMx(s.amlDeclaration.signedAt)} con{' '}
                  {s.amlDeclaration.method === 'passkey' ? 'llave de acceso' : 'código'}
                </p>
              )}
            </td>
            <td className="text-sm whitespace-nowrap">
              <div>Creada {formatDateTimeMx(s.createdAt)}</div>
              {s.endedAt && <div className="text-base-content/70">Terminó {formatDateTimeMx(s.endedAt)}</div>}
            </td>
          </tr>
        ))}
      </ConsoleTable>
      <PagedTableFooter query={sessions} />
    </section>
  )
}
