import { apiRequest } from '@/lib/api-client'

/** Revokes the server-side admin session; the caller clears the flags whatever happens. */
export function adminLogout(): Promise<unknown> {
  return apiRequest('POST', '/api/admin/logout')
}
