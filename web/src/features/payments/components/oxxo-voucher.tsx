import { ExternalLink } from 'lucide-react'
import { buttonClass } from '@/components/ui/button'
import { formatAmount, formatDateTimeMx } from '@/lib/format'
import type { Payment } from '../api/get-payment-status'

/** The OXXO voucher awaiting cash: its reference, amount, deadline and printable page. */
export function OxxoVoucher({ payment, message }: { payment: Payment; message: string }) {
  const voucher = payment.voucher
  return (
    <div className="space-y-3">
      <h3 className="font-semibold">Ficha de pago OXXO</h3>
      <p className="text-sm">{message}</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
        <dt className="text-base-content/70">Referencia</dt>
        <dd className="font-mono font-semibold break-all" data-testid="voucher-number">
          {voucher?.number ?? '—'}
        </dd>
        <dt className="text-base-content/70">Monto</dt>
        <dd className="font-medium">{formatAmount(payment.amount)}</dd>
        <dt className="text-base-content/70">Fecha límite</dt>
        <dd className="font-medium">{formatDateTimeMx(voucher?.expiresAt)}</dd>
      </dl>
      {voucher?.url && (
        <a href={voucher.url} target="_blank" rel="noopener noreferrer" className={buttonClass('outline', 'sm')}>
          <ExternalLink className="size-4" aria-hidden />
          Ver ficha de pago
        </a>
      )}
    </div>
  )
}
