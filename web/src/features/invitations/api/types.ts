/** Invitation types (SPEC §6 'Invitation roles'). */
export type InvitationType = 'client' | 'broker'

/** Invitation states (SPEC §4). */
export type InvitationStatus = 'pending' | 'accepted' | 'expired' | 'cancelled'

/** An invitation as its inviter reads it (SPEC §3 'invitations', plus uniqueLink). */
export type Invitation = {
  id: number
  inviterId: number
  inviteeEmail: string
  inviteePhone?: string | null
  inviteeName: string
  invitationCode: string
  type: InvitationType
  status: InvitationStatus
  personalMessage?: string | null
  companyName?: string | null
  expiresAt: string
  acceptedAt?: string | null
  acceptedUserId?: number | null
  createdAt: string
  uniqueLink: string
}

/** What an invitee may read about their invitation. */
export type PublicInvitation = {
  invitationCode: string
  inviteeName: string
  inviteeEmail: string
  type: InvitationType
  companyName?: string | null
  personalMessage?: string | null
  inviterName: string
  expiresAt: string
  status: InvitationStatus
}
