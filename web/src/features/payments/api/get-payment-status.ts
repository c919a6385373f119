import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'

/** GET /api/payments/status: the signed-in person's plan, payment and what remains to do. */
export type PaymentStatus = Schema<'PaymentStatusResponse'>

/** A plan as the status offers it. */
export type Plan = PaymentStatus['plans'][number]

/** The newest payment attempt the status speaks of. */
export type Payment = NonNullable<PaymentStatus['payment']>

/** Time between two status checks while an OXXO voucher awaits cash. */
export const PENDING_POLL_MS = 5000

/** Time between two status checks right after returning from the checkout page. */
export const CONFIRM_POLL_MS = 1500

/** Reads the payment status of the session's person. */
export function getPaymentStatus(): Promise<PaymentStatus> {
  return apiRequest<PaymentStatus>('GET', '/api/payments/status')
}

/** Query options owning the payment-status key; a checkout and a finished biometric check invalidate it. */
export const paymentStatusQueryOptions = queryOptions({ queryKey: ['/api/payments/status'], queryFn: getPaymentStatus })

/**
 * The payment status, polled while it can change by itself: every 5 s while an OXXO voucher is
 * pending, every 1.5 s while confirming a payment just made on the checkout page.
 */
export function usePaymentStatus({ confirming = false }: { confirming?: boolean } = {}) {
  return useQuery({
    ...paymentStatusQueryOptions,
    refetchInterval: (query) => {
      const state = query.state.data?.state
      if (state === 'pending') return PENDING_POLL_MS
      if (confirming && state === 'open') return CONFIRM_POLL_MS
      return false
    },
  })
}
