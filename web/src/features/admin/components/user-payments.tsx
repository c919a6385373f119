import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Table } from '@/components/ui/table'
import { useToast } from '@/components/ui/toast'
import { serverMessage } from '@/lib/api-client'
import { formatAmount, formatDateTimeMx } from '@/lib/format'
import { PAYMENT_METHOD_LABEL } from '@/lib/plans'
import { useUserPayments, type AdminPayment } from '../api/get-user-payments'
import { useRefundPayment } from '../api/refund-payment'
import { useAdminUnauthorizedOn } from './use-admin-unauthorized'

/** The payment states in Spanish. */
export const paymentStatusLabel: Record<NonNullable<AdminPayment['status']>, string> = {
  creating: 'Creando',
  open: 'En proceso',
  pending: 'Pendiente (OXXO)',
  paid: 'Pagado',
  failed: 'Ficha vencida',
  expired: 'Sesión vencida',
  cancelled: 'Reemplazado',
  start_failed: 'No se pudo iniciar',
  refunded: 'Reembolsado',
}

function statusText(p: AdminPayment): string {
  const label = p.status ? paymentStatusLabel[p.status] : '—'
  return p.consumedAt ? `${label} (usado)` : label
}

/** 'Pagos' in the user edit tab: the user's payments, and refunding one with a confirmation. */
export function UserPayments({ userId, canRefund = true }: { userId: number; canRefund?: boolean }) {
  const payments = useUserPayments(userId)
  const refund = useRefundPayment()
  const onUnauthorized = useAdminUnauthorizedOn(payments.error)
  const { toast } = useToast()
  const [refundId, setRefundId] = useState<number | null>(null)

  const confirmRefund = () => {
    if (refundId === null) return
    refund.mutate(
      { paymentId: refundId, userId },
      {
        onSuccess: (res) => toast({ title: 'Reembolso solicitado', description: res.message }),
        onError: (err) => {
          if (onUnauthorized(err)) return
          toast({ title: 'Error', description: serverMessage(err, 'No se pudo solicitar el reembolso.'), variant: 'destructive' })
        },
        onSettled: () => setRefundId(null),
      },
    )
  }

  const list = payments.data?.payments ?? []
  return (
    <section className="max-w-4xl space-y-3" data-testid="admin-payments" aria-labelledby="admin-payments-title">
      <h3 id="admin-payments-title" className="text-lg font-semibold">
        Pagos
      </h3>
      {payments.isPending ? (
        <span className="loading loading-spinner loading-sm" role="status" aria-label="Cargando pagos" />
      ) : payments.isError ? (
        <p className="text-sm text-error">No se pudieron cargar los pagos.</p>
      ) : list.length === 0 ? (
        <p className="text-sm text-base-content/70">Sin pagos registrados.</p>
      ) : (
        <Table className="table-sm" columns={['Fecha', 'Plan', 'Importe', 'Método', 'Estado', { label: <span className="sr-only">Acciones</span> }]}>
          {list.map((p, i) => (
            <tr key={p.id ?? i} data-testid="admin-payment-row">
              <td className="whitespace-nowrap">{formatDateTimeMx(p.createdAt)}</td>
              <td>{p.planName ?? p.plan ?? '—'}</td>
              <td className="whitespace-nowrap">{p.amount === undefined ? '—' : formatAmount(p.amount)}</td>
              <td>{p.method ? PAYMENT_METHOD_LABEL[p.method] : '—'}</td>
              <td>{statusText(p)}</td>
              <td className="text-right">
                {p.refundRequestedAt && !p.refundedAt ? (
                  <span className="text-sm text-base-content/70">Reembolso solicitado</span>
                ) : p.status === 'paid' && p.method === 'oxxo' ? (
                  // Stripe cannot refund cash paid at OXXO: the person is credited outside Stripe.
                  <span className="text-sm text-base-content/70" title="Stripe no reembolsa pagos en efectivo en OXXO">
                    Sin reembolso (efectivo)
                  </span>
                ) : (
                  canRefund &&
                  p.refundable &&
                  p.id !== undefined && (
                    <Button variant="outline" size="sm" onClick={() => setRefundId(p.id ?? null)} disabled={refund.isPending}>
                      Reembolsar
                    </Button>
                  )
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
      <ConfirmDialog
        open={refundId !== null}
        pending={refund.isPending}
        title="¿Reembolsar este pago?"
        confirmLabel="Sí, reembolsar"
        onCancel={() => setRefundId(null)}
        onConfirm={confirmRefund}
      >
        <p>Se devolverá el importe completo por medio de Stripe.</p>
        {list.find((p) => p.id === refundId)?.consumedAt && (
          <p className="mt-2">Este pago ya se usó para una validación: reembolsarlo no revoca la validación.</p>
        )}
      </ConfirmDialog>
    </section>
  )
}
