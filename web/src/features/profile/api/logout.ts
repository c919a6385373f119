import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'

/** POST /api/logout: revokes the server session (the answer is not read). */
export async function logout(): Promise<void> {
  await apiRequest<unknown>('POST', '/api/logout')
}

/** Mutation hook for logout. */
export function useLogout() {
  return useMutation({ mutationFn: logout })
}
