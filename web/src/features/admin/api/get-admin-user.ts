import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { AdminUser } from './get-users'

/** GET /api/users/{id} with the admin session. */
export function getAdminUser(id: number): Promise<AdminUser> {
  return apiRequest<AdminUser>('GET', `/api/users/${id}`)
}

/** Query options owning one user's key (under the list key, so saves refresh it too). */
export function adminUserQueryOptions(id: number) {
  return queryOptions({ queryKey: ['/api/users', String(id)], queryFn: () => getAdminUser(id), staleTime: 0 })
}

/** The user the edit tab loads. */
export function useAdminUser(id: number | null) {
  return useQuery({ ...adminUserQueryOptions(id ?? 0), enabled: id !== null })
}
