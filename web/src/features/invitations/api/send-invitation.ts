import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { toApiUserId } from '@/lib/user-id'
import { invitationsQueryOptions } from './get-invitations'
import type { InvitationType } from './types'
import type { Schema } from '@/lib/api-types'

/** POST /api/invitations payload: the form fields plus the inviter (SPEC §7). */
export type SendInvitationInput = {
  inviterId: string
  inviteeEmail: string
  inviteeName: string
  inviteePhone?: string
  type: InvitationType
  personalMessage?: string
  companyName?: string
  expiresInDays: number
}

/** POST /api/invitations answer. */
export type SendInvitationResponse = Schema<'CreateInvitationResponse'>

/** Sends an invitation; empty optional fields are left out. */
export function sendInvitation({ inviterId, ...fields }: SendInvitationInput): Promise<SendInvitationResponse> {
  // The server takes the inviter from the session; a numeric id is sent as the spec's client did.
  const id = toApiUserId(inviterId)
  const body: Schema<'CreateInvitationRequest'> = { ...fields, ...(typeof id === 'number' ? { inviterId: id } : {}) }
  for (const key of Object.keys(body) as (keyof typeof body)[]) {
    if (body[key] === undefined || body[key] === '') delete body[key]
  }
  return apiRequest<SendInvitationResponse>('POST', '/api/invitations', body)
}

/** Mutation hook for sendInvitation; refreshes the inviter's list. */
export function useSendInvitation() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: sendInvitation,
    onSuccess: (_data, input) => client.invalidateQueries({ queryKey: invitationsQueryOptions(input.inviterId).queryKey }),
  })
}
