import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'

/** GET /api/admin/users/{id}/payments answer. */
export type AdminPaymentsResponse = Schema<'AdminPaymentsResponse'>

/** One payment of a user as the administrator sees it, with its provider ids and refund state. */
export type AdminPayment = AdminPaymentsResponse['payments'][number]

/** GET /api/admin/users/{id}/payments, newest first. */
export function getUserPayments(userId: number): Promise<AdminPaymentsResponse> {
  return apiRequest<AdminPaymentsResponse>('GET', `/api/admin/users/${userId}/payments`)
}

/** Query options owning a user's payments key; a refund invalidates it. */
export function userPaymentsQueryOptions(userId: number) {
  return queryOptions({
    queryKey: ['/api/admin/users', userId, 'payments'],
    queryFn: () => getUserPayments(userId),
    staleTime: 0,
  })
}

/** The payments of the user being edited. */
export function useUserPayments(userId: number) {
  return useQuery(userPaymentsQueryOptions(userId))
}
