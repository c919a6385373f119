import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'

/** POST /api/users/{id}/confirmation-code answer (202); the code itself only outside production. */
export type ConfirmationCodeSent = { message: string; verificationCode?: string }

/** Sends a code that confirms a sensitive action (deleting the account). */
export function sendConfirmationCode(userId: string): Promise<ConfirmationCodeSent> {
  return apiRequest<ConfirmationCodeSent>('POST', `/api/users/${encodeURIComponent(userId)}/confirmation-code`)
}

/** Mutation hook for sendConfirmationCode. */
export function useSendConfirmationCode() {
  return useMutation({ mutationFn: sendConfirmationCode })
}
