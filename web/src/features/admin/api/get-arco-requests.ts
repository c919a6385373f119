import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { ArcoRequest } from '@/lib/arco'

// Local types until the server's schema is regenerated into lib/api-schema.d.ts.

/** An ARCO request as the administrators' queue reads it. */
export type AdminArcoRequest = ArcoRequest & {
  /** The profile it concerns; null once the account is gone and nothing links it. */
  profileId: string | null
  nombre: string | null
  details: string | null
  /** What was answered, once resolved. */
  resolution: string | null
  /** Business days left before dueAt (negative once late). */
  businessDaysLeft: number
}

/** Which requests the queue lists: those awaiting an answer, or every one. */
export type ArcoQueueFilter = 'open' | 'all'

/** The key every list of the queue starts with; recording or resolving a request invalidates it. */
export const adminArcoRequestsKey = ['/api/admin/arco-requests'] as const

/** GET /api/admin/arco-requests?state=: the queue, oldest first. */
export function getAdminArcoRequests(state: ArcoQueueFilter): Promise<AdminArcoRequest[]> {
  return apiRequest<AdminArcoRequest[]>('GET', `/api/admin/arco-requests?state=${state}`)
}

/** Query options owning the queue's key for a filter. */
export function adminArcoRequestsQueryOptions(state: ArcoQueueFilter) {
  return queryOptions({ queryKey: [...adminArcoRequestsKey, state], queryFn: () => getAdminArcoRequests(state) })
}

/** The ARCO queue. */
export function useAdminArcoRequests(state: ArcoQueueFilter) {
  return useQuery(adminArcoRequestsQueryOptions(state))
}
