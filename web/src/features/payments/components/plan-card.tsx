import { useEffect, useState, type ReactNode } from 'react'
import { CircleCheck, ExternalLink, Info, Loader2, ShieldX } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button, buttonClass } from '@/components/ui/button'
import { Card, CardBody, CardTitle } from '@/components/ui/card'
import { formatAmount, formatDateMx } from '@/lib/format'
import { PAYMENT_METHOD_LABEL, paidPlanCode } from '@/lib/plans'
import { usePaymentStatus, type Payment, type PaymentStatus } from '../api/get-payment-status'
import { OxxoVoucher } from './oxxo-voucher'
import { PlanChooser } from './plan-chooser'

/** How the person came back from the checkout page (/profile?pago=exito or ?pago=cancelado). */
export type CheckoutReturn = 'success' | 'cancelled' | null

/** How long the card keeps checking every 1.5 s for a payment just made on the checkout page. */
export const CONFIRM_MAX_MS = 2 * 60 * 1000

const FREE_PLAN_NAME = 'Validación gratuita'

/** The checkout return of the profile's query string (?pago=exito, ?pago=cancelado). */
export function checkoutReturn(params: URLSearchParams): CheckoutReturn {
  const pago = params.get('pago')
  return pago === 'exito' ? 'success' : pago === 'cancelado' ? 'cancelled' : null
}

/**
 * 'Plan y pago' on Mi Perfil: the plan to buy before the biometric check and its payment, by the
 * state the server reports. Nothing at all when payments are off.
 */
export function PlanCard({ returned = null }: { returned?: CheckoutReturn }) {
  const [confirming, setConfirming] = useState(returned === 'success')
  const status = usePaymentStatus({ confirming })

  useEffect(() => {
    if (!confirming) return
    const timer = window.setTimeout(() => setConfirming(false), CONFIRM_MAX_MS)
    return () => window.clearTimeout(timer)
  }, [confirming])

  if (status.isPending) return null
  if (status.isError) {
    return (
      <Frame>
        <p className="text-sm">No pudimos cargar el estado de tu plan.</p>
        <Button variant="outline" size="sm" className="self-start" onClick={() => void status.refetch()}>
          Reintentar
        </Button>
      </Frame>
    )
  }
  const data = status.data
  // Payments off: no plan to speak of, even while revoked (Mi Perfil says that elsewhere).
  if (data.state === 'not_required' || (data.state === 'revoked' && !data.paymentsEnabled)) return null
  return (
    <Frame>
      {returned === 'cancelled' && (
        <Alert variant="info" icon={<Info className="size-5" aria-hidden />}>
          Cancelaste el pago. Puedes intentarlo de nuevo cuando quieras.
        </Alert>
      )}
      {confirming && data.state === 'open' && (
        <Alert variant="info" icon={<Loader2 className="size-5 animate-spin" aria-hidden />}>
          Estamos confirmando tu pago…
        </Alert>
      )}
      <StateBody status={data} />
    </Frame>
  )
}

function Frame({ children }: { children: ReactNode }) {
  return (
    <Card data-testid="plan-card">
      <CardBody className="gap-4">
        <CardTitle className="text-lg">Plan y pago</CardTitle>
        {children}
      </CardBody>
    </Card>
  )
}

function StateBody({ status }: { status: PaymentStatus }) {
  const { state, message, payment } = status
  const initial = paidPlanCode(status.plan) ?? paidPlanCode(payment?.plan) ?? 'one_year'
  const chooser = <PlanChooser plans={status.plans} initial={initial} />
  switch (state) {
    case 'free':
      return (
        <div className="space-y-1">
          <p className="font-semibold">{FREE_PLAN_NAME}</p>
          <p className="text-sm">Vigencia de 1 año</p>
          <p className="text-sm text-base-content/80">{message}</p>
        </div>
      )
    case 'open':
      return (
        <>
          <p className="text-sm">{message}</p>
          {payment?.checkoutUrl ? (
            <a href={payment.checkoutUrl} className={buttonClass('default', 'default', 'self-start')}>
              <ExternalLink className="size-4" aria-hidden />
              Continuar con el pago
            </a>
          ) : (
            <p className="flex items-center gap-2 text-sm text-base-content/70">
              <span className="loading loading-spinner loading-xs" aria-hidden />
              Preparando tu página de pago…
            </p>
          )}
          <div className="divider my-0 text-xs text-base-content/70">o elige otro plan</div>
          <PlanChooser plans={status.plans} initial={initial} outline />
        </>
      )
    case 'pending':
      return (
        <>
          {payment && <OxxoVoucher payment={payment} message={message} />}
          <details className="collapse-arrow collapse border border-base-300">
            <summary className="collapse-title text-sm font-medium">¿Prefieres pagar con tarjeta?</summary>
            <div className="collapse-content">{chooser}</div>
          </details>
        </>
      )
    case 'paid':
      return payment ? <PaidPayment payment={payment} message={message} /> : <p className="text-sm">{message}</p>
    case 'active':
      return <ActivePlan status={status} />
    case 'revoked':
      return (
        <div className="space-y-1" data-testid="plan-revoked">
          <Badge variant="destructive">
            <ShieldX className="size-3.5" aria-hidden />
            Validación revocada
          </Badge>
          <p className="text-sm">{message}</p>
        </div>
      )
    default: // choose, failed
      return (
        <>
          <p className="text-sm">{message}</p>
          {chooser}
        </>
      )
  }
}

function PaidPayment({ payment, message }: { payment: Payment; message: string }) {
  return (
    <div className="space-y-3">
      <Badge variant="success">
        <CircleCheck className="size-3.5" aria-hidden />
        Pagado
      </Badge>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
        <dt className="text-base-content/70">Plan</dt>
        <dd className="font-medium">{payment.planName}</dd>
        <dt className="text-base-content/70">Importe</dt>
        <dd className="font-medium">{formatAmount(payment.amount)}</dd>
        {payment.method && (
          <>
            <dt className="text-base-content/70">Método</dt>
            <dd className="font-medium">{PAYMENT_METHOD_LABEL[payment.method]}</dd>
          </>
        )}
      </dl>
      <p className="text-sm">{message}</p>
    </div>
  )
}

function ActivePlan({ status }: { status: PaymentStatus }) {
  const { payment } = status
  const name = payment?.planName ?? (status.plan === 'free' ? FREE_PLAN_NAME : status.plans.find((p) => p.code === status.plan)?.name)
  return (
    <div className="space-y-1">
      <Badge variant="success">
        <CircleCheck className="size-3.5" aria-hidden />
        Plan activo
      </Badge>
      {name && <p className="font-semibold">{name}</p>}
      {payment?.paidAt && <p className="text-sm text-base-content/70">Pagado el {formatDateMx(payment.paidAt)}</p>}
    </div>
  )
}
