import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'

/** POST /api/users/{id}/confirmation-code answer (202); the code itself only outside production. */
export type ConfirmationCodeSent = { message: string; channel?: 'email' | 'phone'; verificationCode?: string }

/** Where the code goes: the current phone (the default, or the e-mail without one) or the current e-mail. */
export type ConfirmationVia = 'phone' | 'email'

/** Sends a code that confirms a sensitive action (deleting the account, changing a contact). */
export function sendConfirmationCode(userId: string, via?: ConfirmationVia): Promise<ConfirmationCodeSent> {
  const query = via ? `?via=${via}` : ''
  return apiRequest<ConfirmationCodeSent>('POST', `/api/users/${encodeURIComponent(userId)}/confirmation-code${query}`)
}

/** Mutation hook for sendConfirmationCode to the default contact. */
export function useSendConfirmationCode() {
  return useMutation({ mutationFn: (userId: string) => sendConfirmationCode(userId) })
}

/** Mutation hook for sendConfirmationCode to a chosen contact. */
export function useSendConfirmationCodeVia() {
  return useMutation({ mutationFn: ({ userId, via }: { userId: string; via?: ConfirmationVia }) => sendConfirmationCode(userId, via) })
}
