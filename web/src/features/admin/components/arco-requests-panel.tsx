import { useState } from 'react'
import { Badge, type BadgeVariant } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { QueryTable } from '@/components/ui/table'
import { useToast } from '@/components/ui/toast'
import { ARCO_CHANNEL_LABEL, ARCO_STATE_LABEL, ARCO_TYPE_LABEL, isArcoOpen, type ArcoState } from '@/lib/arco'
import { cn } from '@/lib/cn'
import { formatDateMx } from '@/lib/format'
import { useAdminArcoRequests, type AdminArcoRequest, type ArcoQueueFilter } from '../api/get-arco-requests'
import { ArcoRequestForm } from './arco-request-form'
import { ArcoResolveDialog, type ArcoResolution } from './arco-resolve-dialog'
import { useAdminUnauthorizedOn } from './use-admin-unauthorized'

/** Business days left at or under which a request is flagged red. */
export const ARCO_URGENT_DAYS = 3

const stateVariant: Record<ArcoState, BadgeVariant> = {
  recibida: 'outline',
  en_proceso: 'warning',
  atendida: 'success',
  rechazada: 'secondary',
}

/** The days-left cell: red within 3 business days, 'Vencida' once late, nothing for a closed request. */
function DaysLeft({ request }: { request: AdminArcoRequest }) {
  if (!isArcoOpen(request.state)) return <span className="text-base-content/50">—</span>
  const days = request.businessDaysLeft
  if (days < 0) return <Badge variant="destructive">Vencida</Badge>
  const text = days === 1 ? '1 día' : `${days} días`
  return days <= ARCO_URGENT_DAYS ? <Badge variant="destructive">{text}</Badge> : <span>{text}</span>
}

/** "Solicitudes ARCO": the queue of requests with their legal deadline, recording e-mailed ones and closing them. */
export function ArcoRequestsPanel() {
  const [filter, setFilter] = useState<ArcoQueueFilter>('open')
  const requests = useAdminArcoRequests(filter)
  const onUnauthorized = useAdminUnauthorizedOn(requests.error)
  const { toast } = useToast()
  const [target, setTarget] = useState<ArcoResolution | null>(null)

  return (
    <div className="space-y-8">
      <div className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-base-content/70">La ley da 20 días hábiles para responder. Las más antiguas van primero.</p>
          <div className="join" role="group" aria-label="Filtrar solicitudes">
            {(
              [
                ['open', 'Abiertas'],
                ['all', 'Todas'],
              ] as const
            ).map(([value, label]) => (
              <button
                key={value}
                type="button"
                className={cn('btn btn-sm join-item', filter === value && 'btn-active')}
                aria-pressed={filter === value}
                onClick={() => setFilter(value)}
              >
                {label}
              </button>
            ))}
          </div>
        </div>
        <QueryTable
          columns={['Recibida', 'Perfil', 'Tipo', 'Canal', 'Días hábiles restantes', 'Estado', 'Acciones']}
          query={requests}
          loadingLabel="Cargando solicitudes"
          error="Error al cargar las solicitudes"
          isEmpty={!requests.data?.length}
          empty={filter === 'open' ? 'No hay solicitudes pendientes.' : 'No hay solicitudes registradas.'}
        >
          {(requests.data ?? []).map((r) => (
            <tr key={r.id} data-testid="arco-row">
              <td className="whitespace-nowrap">{formatDateMx(r.receivedAt)}</td>
              <td>
                <div className="font-medium">{r.nombre ?? 'Cuenta eliminada'}</div>
                {r.profileId && <div className="font-mono text-xs text-base-content/70">{r.profileId}</div>}
                {r.details && <div className="max-w-xs text-xs text-base-content/70">{r.details}</div>}
              </td>
              <td>{ARCO_TYPE_LABEL[r.type]}</td>
              <td>{ARCO_CHANNEL_LABEL[r.channel]}</td>
              <td>
                <DaysLeft request={r} />
              </td>
              <td>
                <Badge variant={stateVariant[r.state]}>{ARCO_STATE_LABEL[r.state]}</Badge>
                {r.resolution && <div className="mt-1 max-w-xs text-xs text-base-content/70">{r.resolution}</div>}
              </td>
              <td>
                {isArcoOpen(r.state) && (
                  <div className="flex flex-wrap gap-1">
                    <Button size="sm" variant="outline" onClick={() => setTarget({ request: r, state: 'atendida' })}>
                      Marcar atendida
                    </Button>
                    <Button size="sm" variant="ghost" className="text-error" onClick={() => setTarget({ request: r, state: 'rechazada' })}>
                      Rechazar
                    </Button>
                  </div>
                )}
              </td>
            </tr>
          ))}
        </QueryTable>
      </div>
      <ArcoRequestForm onUnauthorized={onUnauthorized} />
      <ArcoResolveDialog
        target={target}
        onClose={() => setTarget(null)}
        onUnauthorized={onUnauthorized}
        onResolved={(t) => {
          setTarget(null)
          toast({
            title: t.state === 'atendida' ? 'Solicitud atendida' : 'Solicitud rechazada',
            description: `${ARCO_TYPE_LABEL[t.request.type]} de ${t.request.nombre ?? t.request.profileId ?? 'una cuenta eliminada'}.`,
          })
        }}
      />
    </div>
  )
}
