import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { toApiUserId } from '@/lib/user-id'
import { invitationsQueryOptions } from './get-invitations'

/** DELETE /api/invitations/{id} with the inviter in the body (SPEC §7). */
export function cancelInvitation({ id, inviterId }: { id: number; inviterId: string }): Promise<unknown> {
  return apiRequest('DELETE', `/api/invitations/${id}`, { inviterId: toApiUserId(inviterId) })
}

/** Mutation hook for cancelInvitation; refreshes the inviter's list. */
export function useCancelInvitation() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: cancelInvitation,
    onSuccess: (_data, input) => client.invalidateQueries({ queryKey: invitationsQueryOptions(input.inviterId).queryKey }),
  })
}
