import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'

/** GET /api/admin/session: who is signed in, their role, and until when destructive actions need no new confirmation. */
export type AdminSession = Schema<'AdminSessionResponse'>

/** The signed-in administrator's session. */
export function getAdminSession(): Promise<AdminSession> {
  return apiRequest<AdminSession>('GET', '/api/admin/session')
}

/** Query options for the admin session (its key is shared with the re-confirmation). */
export const adminSessionQueryOptions = queryOptions({ queryKey: ['admin', 'session'], queryFn: getAdminSession, staleTime: 60_000 })

/** The session; its role drives what the panel shows. */
export function useAdminSession() {
  return useQuery(adminSessionQueryOptions)
}
