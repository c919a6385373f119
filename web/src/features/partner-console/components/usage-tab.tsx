import { Table } from '@/components/ui/table'
import { formatDateTimeMx } from '@/lib/format'
import { useSignedOutOn } from '../api/get-console-me'
import { useUsage } from '../api/usage'
import { monthLabel } from '../labels'
import type { Mode } from '../types'
import { QueryErrorAlert } from './query-error'

const count = (n: number) => n.toLocaleString('es-MX')
const right = (label: string) => ({ label, className: 'text-right' })

/** "Uso": requests counted and, per month (Mexico City), the sessions opened, completed and declined in the mode. */
export function UsageTab({ mode }: { mode: Mode }) {
  const usage = useUsage(mode)
  useSignedOutOn(usage.error)
  if (usage.isPending) return <span className="loading loading-spinner loading-md text-primary" role="status" aria-label="Cargando" />
  if (usage.isError) {
    return <QueryErrorAlert title="No pudimos cargar tu uso" query={usage} />
  }
  const u = usage.data
  const thisMonth = u.months[0]
  const word = mode === 'test' ? 'de prueba' : 'de producción'
  return (
    <section className="space-y-6" aria-labelledby="usage-title">
      <h2 id="usage-title" className="sr-only">
        Uso
      </h2>
      <div className="stats stats-vertical w-full border border-base-300 sm:stats-horizontal">
        <div className="stat">
          <div className="stat-title">Solicitudes a la API</div>
          <div className="stat-value text-2xl" data-testid="usage-requests">
            {count(u.requestsCount)}
          </div>
          <div className="stat-desc whitespace-normal">Prueba y producción, desde el alta. Último uso: {formatDateTimeMx(u.lastUsedAt)}</div>
        </div>
        <div className="stat">
          <div className="stat-title">Sesiones {word} este mes</div>
          <div className="stat-value text-2xl">{count(thisMonth?.opened ?? 0)}</div>
          <div className="stat-desc">{thisMonth ? monthLabel(thisMonth.month) : ''}</div>
        </div>
        <div className="stat">
          <div className="stat-title">Completadas este mes</div>
          <div className="stat-value text-2xl">{count(thisMonth?.completed ?? 0)}</div>
          <div className="stat-desc">La persona compartió sus datos</div>
        </div>
      </div>
      <Table
        caption={<>Sesiones {word} por mes, hora de la Ciudad de México (últimos 12 meses).</>}
        columns={['Mes', right('Abiertas'), right('Completadas'), right('Rechazadas'), right('Completadas (%)')]}
      >
        {u.months.map((m) => (
          <tr key={m.month} data-testid="usage-row">
            <td className="whitespace-nowrap capitalize">{monthLabel(m.month)}</td>
            <td className="text-right">{count(m.opened)}</td>
            <td className="text-right">{count(m.completed)}</td>
            <td className="text-right">{count(m.declined)}</td>
            <td className="text-right">{m.opened ? `${Math.round((m.completed / m.opened) * 100)} %` : '—'}</td>
          </tr>
        ))}
      </Table>
    </section>
  )
}
