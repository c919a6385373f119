import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'

/** POST /api/users/{id}/confirmation answer: the sensitive action is allowed until then (5 minutes). */
export type Confirmation = { confirmedUntil: string }

/** Enters the confirmation code. */
export function confirmIdentity({ userId, code }: { userId: string; code: string }): Promise<Confirmation> {
  return apiRequest<Confirmation>('POST', `/api/users/${encodeURIComponent(userId)}/confirmation`, { code })
}

/** Mutation hook for confirmIdentity. */
export function useConfirmIdentity() {
  return useMutation({ mutationFn: confirmIdentity })
}
