import { useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'

/** One step of a profile's lifecycle: expired (by the system) or revoked (by an administrator). */
export type LifecycleEvent = Schema<'LifecycleResponse'>['events'][number]

/** The key of a profile's history; revocations invalidate it. */
export const lifecycleQueryKey = (id: number) => ['/api/admin/users', id, 'lifecycle'] as const

/** GET /api/admin/users/{id}/lifecycle, newest first. */
export function getLifecycle(id: number): Promise<{ events: LifecycleEvent[] }> {
  return apiRequest<{ events: LifecycleEvent[] }>('GET', `/api/admin/users/${id}/lifecycle`)
}

/** A profile's lifecycle history, while id is set. */
export function useLifecycle(id: number | null) {
  return useQuery({
    queryKey: lifecycleQueryKey(id ?? 0),
    queryFn: () => getLifecycle(id ?? 0),
    enabled: id !== null,
  })
}
