import { useId, useState } from 'react'
import { CreditCard } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { useToast } from '@/components/ui/toast'
import { isNetworkError, serverMessage } from '@/lib/api-client'
import { cn } from '@/lib/cn'
import { formatPrice } from '@/lib/format'
import { paidPlanCode, type PaidPlanCode } from '@/lib/plans'
import { useCreateCheckout } from '../api/create-checkout'
import type { Plan } from '../api/get-payment-status'

const CHECKOUT_ERROR = 'No se pudo iniciar el pago. Intenta nuevamente.'

/**
 * The paid plans as radio options and the 'Pagar $299 MXN' button that opens the checkout page
 * (card or OXXO) of the chosen one; outline when another action comes first.
 */
export function PlanChooser({ plans, initial, outline = false }: { plans: Plan[]; initial: PaidPlanCode; outline?: boolean }) {
  const paid = plans.flatMap((p) => {
    const code = paidPlanCode(p.code)
    return code ? [{ ...p, code }] : []
  })
  const [selected, setSelected] = useState<PaidPlanCode>(initial)
  const checkout = useCreateCheckout()
  const { toast } = useToast()
  const group = useId()
  const plan = paid.find((p) => p.code === selected) ?? paid[0]
  if (!plan) return null
  // After success the browser is on its way to the checkout page: keep the button busy.
  const busy = checkout.isPending || checkout.isSuccess

  const pay = () =>
    checkout.mutate(plan.code, {
      onError: (err) =>
        toast({
          title: 'Error',
          description: isNetworkError(err) ? 'No se pudo conectar con el servidor. Intenta nuevamente.' : serverMessage(err, CHECKOUT_ERROR),
          variant: 'destructive',
        }),
    })

  return (
    <div className="space-y-3">
      <fieldset className="space-y-2" disabled={busy}>
        <legend className="mb-2 text-sm font-medium">Elige tu plan</legend>
        {paid.map((p) => (
          <label
            key={p.code}
            className={cn(
              'flex cursor-pointer items-center gap-3 rounded-box border p-3',
              p.code === plan.code ? 'border-primary bg-primary/5' : 'border-base-300',
            )}
          >
            <input
              type="radio"
              className="radio radio-primary radio-sm"
              name={group}
              value={p.code}
              checked={p.code === plan.code}
              onChange={() => setSelected(p.code)}
              aria-labelledby={`${group}-${p.code}`}
              aria-describedby={`${group}-${p.code}-price`}
            />
            <span id={`${group}-${p.code}`} className="flex-1 font-medium">
              {p.name}
            </span>
            {p.recommended && <Badge>Recomendado</Badge>}
            <span id={`${group}-${p.code}-price`} className="font-semibold whitespace-nowrap">
              {formatPrice(p.price)}
            </span>
          </label>
        ))}
      </fieldset>
      <Button variant={outline ? 'outline' : 'default'} className="w-full sm:w-auto" onClick={pay} disabled={busy}>
        {busy ? <span className="loading loading-spinner loading-sm" aria-hidden /> : <CreditCard className="size-4" aria-hidden />}
        Pagar {formatPrice(plan.price)}
      </Button>
      <p className="text-xs text-base-content/70">Pago seguro con tarjeta o en efectivo en OXXO.</p>
    </div>
  )
}
