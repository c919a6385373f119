import type { Schema } from '@/lib/api-types'

/** Invitation types (SPEC §6 'Invitation roles'). */
export type InvitationType = 'client' | 'broker'

/** Invitation states (SPEC §4). */
export type InvitationStatus = 'pending' | 'accepted' | 'expired' | 'cancelled'

/** An invitation as its inviter reads it (SPEC §3 'invitations', plus uniqueLink). */
export type Invitation = Schema<'InvitationJSON'>

/** What an invitee may read about their invitation. */
export type PublicInvitation = Schema<'ValidateInvitationResponse'>['invitation']
