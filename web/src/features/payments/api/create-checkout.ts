import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'
import type { PaidPlanCode } from '@/lib/plans'
import { getPaymentStatus, paymentStatusQueryOptions } from './get-payment-status'

/** POST /api/payments/checkout answer: the checkout page, or (202) pending while it is created. */
export type CheckoutResponse = Schema<'CheckoutResponse'>

/** Pause between two status checks while the checkout page is being created. */
export const CHECKOUT_POLL_MS = 1000

/** Status checks before giving up on a page that does not appear (about a minute). */
export const CHECKOUT_MAX_POLLS = 60

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Starts paying plan; resolves to the checkout page's URL, waiting while the server creates it. */
export async function createCheckout(plan: PaidPlanCode): Promise<string> {
  const res = await apiRequest<CheckoutResponse>('POST', '/api/payments/checkout', { plan } satisfies Schema<'CheckoutRequest'>)
  if (res.checkoutUrl) return res.checkoutUrl
  for (let attempt = 0; attempt < CHECKOUT_MAX_POLLS; attempt++) {
    await sleep(CHECKOUT_POLL_MS)
    const { payment } = await getPaymentStatus()
    // The status speaks of the newest attempt: another one means this attempt could not start.
    if (payment?.id !== res.paymentId) break
    if (payment.checkoutUrl) return payment.checkoutUrl
  }
  throw new Error('the checkout page did not appear')
}

/**
 * Starts a checkout and sends the browser to its page (a full-page redirect, like Stripe
 * Checkout). A refusal refreshes the payment status: the server may know better (already paid).
 */
export function useCreateCheckout() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: createCheckout,
    onSuccess: (url) => window.location.assign(url),
    onError: () => client.invalidateQueries({ queryKey: paymentStatusQueryOptions.queryKey }),
  })
}
