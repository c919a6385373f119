import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'

/** DELETE /api/users/{id} answer. */
export type AccountDeleted = { success: boolean; message: string }

/**
 * Deletes one's own account. Refused (403) unless a confirmation code was entered in the last
 * 5 minutes.
 */
export function deleteAccount(userId: string): Promise<AccountDeleted> {
  return apiRequest<AccountDeleted>('DELETE', `/api/users/${encodeURIComponent(userId)}`)
}

/** Mutation hook for deleteAccount; the caller forgets the session on success. */
export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount })
}
