import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'

/** What POST /api/admin/login answers on success. */
export type AdminLoginResponse = { success?: boolean; authenticated?: boolean; expiresAt?: string; message?: string }

/** Starts the server-side admin session (HttpOnly cookie, 4 hours). */
export function adminLogin(password: string): Promise<AdminLoginResponse> {
  return apiRequest<AdminLoginResponse>('POST', '/api/admin/login', { password })
}

/** Mutation hook for adminLogin. */
export function useAdminLogin() {
  return useMutation({ mutationFn: adminLogin })
}
