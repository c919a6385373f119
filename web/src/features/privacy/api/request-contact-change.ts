import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'

/** The new address: an e-mail or a phone (+52 and 10 digits). */
export type ContactChange = { email: string } | { phoneNumber: string }

/** POST /api/users/{id}/contact-change answer (202): where the code went; the code itself only outside production. */
export type ContactChangeAccepted = {
  message: string
  channel: 'email' | 'phone'
  verificationCode?: string
}

/** Sends a code to the new e-mail or phone; the change happens when the code comes back. */
export function requestContactChange({ userId, change }: { userId: string; change: ContactChange }): Promise<ContactChangeAccepted> {
  return apiRequest<ContactChangeAccepted>('POST', `/api/users/${encodeURIComponent(userId)}/contact-change`, change)
}

/** Mutation hook for requestContactChange. */
export function useRequestContactChange() {
  return useMutation({ mutationFn: requestContactChange })
}
