import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { ArcoRequest } from '@/lib/arco'

/** GET /api/users/{id}/arco-requests: the person's requests, newest first. */
export function getArcoRequests(userId: string): Promise<ArcoRequest[]> {
  return apiRequest<ArcoRequest[]>('GET', `/api/users/${encodeURIComponent(userId)}/arco-requests`)
}

/** Query options owning a person's requests key; the actions that open a request invalidate it. */
export function arcoRequestsQueryOptions(userId: string) {
  return queryOptions({ queryKey: ['/api/users', userId, 'arco-requests'], queryFn: () => getArcoRequests(userId) })
}

/** A person's ARCO requests. */
export function useArcoRequests(userId: string) {
  return useQuery(arcoRequestsQueryOptions(userId))
}
