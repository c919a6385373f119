import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'

/** POST /api/invitations/accept payload (SPEC §7). */
export type AcceptInvitationInput = Schema<'AcceptInvitationRequest'>

/** The new account (SPEC §7: user {id, name, email, profileId}). */
export type AcceptedUser = Schema<'AcceptInvitationResponse'>['user']

/** POST /api/invitations/accept answer; the server starts the invitee's session with it. */
export type AcceptInvitationResponse = Schema<'AcceptInvitationResponse'>

/** Accepts an invitation, creating the invitee's account. */
export function acceptInvitation(input: AcceptInvitationInput): Promise<AcceptInvitationResponse> {
  return apiRequest<AcceptInvitationResponse>('POST', '/api/invitations/accept', input)
}

/** Mutation hook for acceptInvitation. */
export function useAcceptInvitation() {
  return useMutation({ mutationFn: acceptInvitation })
}
