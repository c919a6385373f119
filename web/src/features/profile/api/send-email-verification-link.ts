import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { toApiUserId } from '@/lib/user-id'
import type { Schema } from '@/lib/api-types'

/** POST /api/send-email-verification-link answer. */
export type EmailLinkResponse = Schema<'EmailLinkResponse'>

/** Sends the level-2 verification link to the user's e-mail. */
export function sendEmailVerificationLink(userId: string): Promise<EmailLinkResponse> {
  return apiRequest<EmailLinkResponse>('POST', '/api/send-email-verification-link', { userId: toApiUserId(userId) })
}

/** Mutation hook for sendEmailVerificationLink. */
export function useSendEmailVerificationLink() {
  return useMutation({ mutationFn: sendEmailVerificationLink })
}
