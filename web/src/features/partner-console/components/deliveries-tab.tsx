import { Send } from 'lucide-react'
import { Badge, type BadgeVariant } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { useToast } from '@/components/ui/toast'
import { serverMessage } from '@/lib/api-client'
import { formatDateTimeMx } from '@/lib/format'
import { useDeliveries, useResend } from '../api/deliveries'
import { useConsoleSignedOut, useSignedOutOn } from '../api/get-console-me'
import { can, DELIVERY_STATUS } from '../labels'
import type { ConsoleMe, Delivery } from '../types'
import { ConsoleTable, PagedTableFooter } from './table-message'
import { TabHeading } from './tab-heading'

const STATUS_BADGE: Record<Delivery['status'], BadgeVariant> = {
  delivered: 'success',
  pending: 'outline',
  retrying: 'warning',
  failed: 'destructive',
}

/** The last attempt's answer: the stored error (it names the HTTP status) or the status alone. */
function LastAnswer({ d }: { d: Delivery }) {
  if (d.lastError) return <span className="text-sm break-words text-error">{d.lastError}</span>
  if (d.statusCode !== null) return <span className="font-mono text-sm">HTTP {d.statusCode}</span>
  return <span className="text-base-content/60">—</span>
}

/** "Entregas": every notification sent to the webhook, its attempts and last answer; resend one now. */
export function DeliveriesTab({ me }: { me: ConsoleMe }) {
  const log = useDeliveries()
  const resend = useResend()
  const { toast } = useToast()
  const signedOut = useConsoleSignedOut()
  useSignedOutOn(log.error)
  const rows = log.data?.pages.flatMap((p) => p.data) ?? []
  const canResend = can(me, 'resend')

  const send = (d: Delivery) =>
    resend.mutate(d.id, {
      onSuccess: () => toast({ title: 'Reenvío en camino', description: `Intentaremos entregar ${d.event} ahora.` }),
      onError: (err) => {
        if (!signedOut(err)) toast({ title: 'No se pudo reenviar', description: serverMessage(err, 'Intenta de nuevo.'), variant: 'destructive' })
      },
    })

  return (
    <section className="space-y-4" aria-labelledby="deliveries-title">
      <TabHeading id="deliveries-title" title="Registro de entregas">
        Si tu servidor no responde con un 2xx, reintentamos hasta 12 veces en unas dos horas, con esperas cada vez más largas. Reenviar
        hace un intento nuevo ahora, aunque ya se haya entregado.
      </TabHeading>
      <ConsoleTable
        columns={['Evento', 'Estado', 'Intentos', 'Última respuesta', 'Fechas', canResend && { label: 'Acciones', className: 'text-right' }]}
        query={log}
        errorText="No pudimos cargar el registro de entregas."
        isEmpty={rows.length === 0}
        empty={<>Aún no hay notificaciones para tu plataforma.</>}
      >
        {rows.map((d) => (
          <tr key={d.id} data-testid="delivery-row">
            <td>
              <code className="font-mono text-xs whitespace-nowrap">{d.event}</code>
              <div className="text-xs text-base-content/60">#{d.id}</div>
            </td>
            <td>
              <Badge variant={STATUS_BADGE[d.status]} className="badge-sm whitespace-nowrap">
                {DELIVERY_STATUS[d.status]}
              </Badge>
              {d.nextAttemptAt && d.status === 'retrying' && (
                <div className="mt-1 text-xs whitespace-nowrap text-base-content/60">Próximo: {formatDateTimeMx(d.nextAttemptAt)}</div>
              )}
            </td>
            <td>{d.attempts}</td>
            <td className="min-w-40 max-w-xs">
              <LastAnswer d={d} />
            </td>
            <td className="text-sm whitespace-nowrap">
              <div>Creada {formatDateTimeMx(d.createdAt)}</div>
              {d.deliveredAt && <div className="text-base-content/70">Entregada {formatDateTimeMx(d.deliveredAt)}</div>}
            </td>
            {canResend && (
              <td className="text-right">
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => send(d)}
                  disabled={resend.isPending}
                  aria-label={`Reenviar ${d.event} #${d.id}`}
                  title="Reenviar ahora"
                >
                  <Send className="size-4" aria-hidden />
                  Reenviar
                </Button>
              </td>
            )}
          </tr>
        ))}
      </ConsoleTable>
      <PagedTableFooter query={log} />
    </section>
  )
}
