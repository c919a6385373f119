import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'
import { useRefetchingMutation } from '@/lib/refetching-mutation'
import { withFreshPasskey } from './admin-passkey'

/** A named administrator. */
export type AdminAccount = Schema<'Admin'>
/** An invitation's answer: the enrolment link, shown once. */
export type AdminEnrolment = Schema<'AdminEnrolmentResponse'>
/** A new administrator. */
export type AdminInvite = Schema<'AdminInviteRequest'>

/** GET /api/admin/admins */
export function getAdmins(): Promise<AdminAccount[]> {
  return apiRequest<AdminAccount[]>('GET', '/api/admin/admins')
}

/** Query options for the administrators list. */
export const adminsQueryOptions = queryOptions({ queryKey: ['admin', 'admins'], queryFn: getAdmins })

/** The administrators. */
export function useAdmins() {
  return useQuery(adminsQueryOptions)
}

function useAdminsMutation<V, R>(fn: (v: V) => Promise<R>) {
  return useRefetchingMutation((v: V) => withFreshPasskey(() => fn(v)), adminsQueryOptions.queryKey)
}

/** POST /api/admin/admins: creates the account and returns its enrolment link. */
export function useInviteAdmin() {
  return useAdminsMutation((v: AdminInvite) => apiRequest<AdminEnrolment>('POST', '/api/admin/admins', v))
}

/** PUT /api/admin/admins/{id}: a new role. */
export function useChangeAdminRole() {
  return useAdminsMutation(({ id, role }: { id: number; role: AdminInvite['role'] }) =>
    apiRequest<AdminAccount>('PUT', `/api/admin/admins/${id}`, { role }),
  )
}

/** POST /api/admin/admins/{id}/disable */
export function useDisableAdmin() {
  return useAdminsMutation((id: number) => apiRequest<AdminAccount>('POST', `/api/admin/admins/${id}/disable`))
}

/** POST /api/admin/admins/{id}/enrolment: a new enrolment link. */
export function useReissueEnrolment() {
  return useAdminsMutation((id: number) => apiRequest<AdminEnrolment>('POST', `/api/admin/admins/${id}/enrolment`))
}
