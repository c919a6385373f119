import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'
import { userPaymentsQueryOptions } from './get-user-payments'
import { withFreshPasskey } from './admin-passkey'

/** POST /api/admin/payments/{id}/refund answer (202: the refund completes when the provider confirms it). */
export type RefundResponse = Schema<'RefundResponse'>

/** Asks the provider to refund a payment in full. */
export function refundPayment({ paymentId }: { paymentId: number; userId: number }): Promise<RefundResponse> {
  return apiRequest<RefundResponse>('POST', `/api/admin/payments/${paymentId}/refund`)
}

/** Refunds a payment, then refetches the user's payments. */
export function useRefundPayment() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (v: { paymentId: number; userId: number }) => withFreshPasskey(() => refundPayment(v)),
    onSettled: (_, __, { userId }) => client.invalidateQueries({ queryKey: userPaymentsQueryOptions(userId).queryKey }),
  })
}
