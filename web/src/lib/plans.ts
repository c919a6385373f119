import type { Schema } from './api-types'

/** A plan bought before the biometric check (POST /api/payments/checkout, ?plan= on /register). */
export type PaidPlanCode = Schema<'CheckoutRequest'>['plan']

/** A paid plan's name and price in pesos, as the server sells it (perfilseguro.Plans). */
export type PaidPlan = { name: string; price: number }

/** The paid plans with the names and prices the landing page and registration show. */
export const PAID_PLANS: Record<PaidPlanCode, PaidPlan> = {
  one_year: { name: 'Validación 1 año', price: 299 },
  five_years: { name: 'Validación 5 años', price: 399 },
}

/** The code when value names a paid plan, else null (a free or unknown plan is ignored). */
export function paidPlanCode(value: string | null | undefined): PaidPlanCode | null {
  return value === 'one_year' || value === 'five_years' ? value : null
}

/** How a payment was made, as Mi Perfil and the admin panel name it. */
export const PAYMENT_METHOD_LABEL = { card: 'Tarjeta', oxxo: 'Efectivo en OXXO' } as const
