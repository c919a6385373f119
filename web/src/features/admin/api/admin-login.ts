import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'

/** What POST /api/admin/login answers on success. */
export type AdminLoginResponse = Schema<'AdminSessionResponse'>

/** Starts the server-side admin session (HttpOnly cookie, 4 hours). */
export function adminLogin(password: string): Promise<AdminLoginResponse> {
  return apiRequest<AdminLoginResponse>('POST', '/api/admin/login', { password })
}

/** Mutation hook for adminLogin. */
export function useAdminLogin() {
  return useMutation({ mutationFn: adminLogin })
}
