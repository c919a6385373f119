import { ListChecks } from 'lucide-react'
import { Badge, type BadgeVariant } from '@/components/ui/badge'
import { Table } from '@/components/ui/table'
import { ARCO_STATE_LABEL, ARCO_TYPE_LABEL, type ArcoState } from '@/lib/arco'
import { formatDateMx } from '@/lib/format'
import { useArcoRequests } from '../api/get-arco-requests'
import { MyDataSection } from './my-data-section'

const stateVariant: Record<ArcoState, BadgeVariant> = {
  recibida: 'outline',
  en_proceso: 'warning',
  atendida: 'success',
  rechazada: 'destructive',
}

/** "Mis solicitudes": the person's ARCO requests, with the date by which each must be answered. */
export function ArcoRequestsSection({ userId }: { userId: string }) {
  const requests = useArcoRequests(userId)
  return (
    <MyDataSection title="Mis solicitudes" icon={ListChecks} testId="arco-requests">
      <p className="text-base-content/80">Cada descarga, corrección u oposición es una solicitud. Te respondemos en un máximo de 20 días hábiles.</p>
      {requests.isPending ? (
        <span className="loading loading-spinner loading-sm" aria-label="Cargando" />
      ) : requests.isError ? (
        <p className="text-error">No pudimos cargar tus solicitudes.</p>
      ) : requests.data.length === 0 ? (
        <p className="text-base-content/70">No tienes solicitudes.</p>
      ) : (
        <Table className="table-sm" columns={['Tipo', 'Recibida', 'Fecha límite', 'Estado']}>
          {requests.data.map((r) => (
            <tr key={r.id} data-testid="arco-request-row">
              <td>{ARCO_TYPE_LABEL[r.type]}</td>
              <td className="whitespace-nowrap">{formatDateMx(r.receivedAt)}</td>
              <td className="whitespace-nowrap">{formatDateMx(r.dueAt)}</td>
              <td>
                <Badge variant={stateVariant[r.state]}>{ARCO_STATE_LABEL[r.state]}</Badge>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </MyDataSection>
  )
}
