import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'

/** GET /api/plans: whether payments are on and the plans for sale (none when off). */
export type PlansResponse = Schema<'PlansResponse'>

/** Reads the plans for sale (public). */
export function getPlans(): Promise<PlansResponse> {
  return apiRequest<PlansResponse>('GET', '/api/plans')
}

/** Query options owning the plans key. */
export const plansQueryOptions = queryOptions({ queryKey: ['/api/plans'], queryFn: getPlans })

/** The plans for sale. */
export function usePlans() {
  return useQuery(plansQueryOptions)
}

/**
 * Whether the screens may speak of prices: only a server that said payments are off hides them;
 * while loading or after a failure the prices stay (the landing's static plans).
 */
export function pricesShown(plans: PlansResponse | undefined): boolean {
  return plans?.paymentsEnabled !== false
}
