import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Invitation } from './types'

/** GET /api/invitations/{inviterId}: the signed-in inviter's invitations, newest first. */
export function getInvitations(inviterId: string): Promise<Invitation[]> {
  return apiRequest<Invitation[]>('GET', `/api/users/${encodeURIComponent(inviterId)}/invitations`)
}

/** Query options owning the inviter's invitations key. */
export function invitationsQueryOptions(inviterId: string) {
  return queryOptions({ queryKey: ['/api/invitations', inviterId], queryFn: () => getInvitations(inviterId) })
}

/** The inviter's invitations. */
export function useInvitations(inviterId: string | null, enabled = true) {
  return useQuery({ ...invitationsQueryOptions(inviterId ?? ''), enabled: Boolean(inviterId) && enabled })
}
