import { queryOptions, useQuery } from '@tanstack/react-query'
import { ApiError, apiRequest, errorBody, serverMessage } from '@/lib/api-client'
import type { PublicInvitation } from './types'

/** The message of an expired invitation (SPEC §2, §8). */
export const INVITATION_EXPIRED =
  'Esta invitación ha expirado. Contacta a quien te invitó para solicitar una nueva.'

/** How the invitee arrived: with a code or with the unique link's token. */
export type InvitationKey = { by: 'code' | 'token'; value: string }

/** What the acceptance screen can show. */
export type InvitationCheck =
  | { state: 'valid'; invitation: PublicInvitation }
  | { state: 'expired'; invitation?: PublicInvitation }
  | { state: 'invalid'; message: string }

/** GET /api/invitations/validate?code= or /validate-token?token=, read into a screen state. */
export async function validateInvitation(key: InvitationKey): Promise<InvitationCheck> {
  const url =
    key.by === 'code'
      ? `/api/invitations/validate?code=${encodeURIComponent(key.value)}`
      : `/api/invitations/validate-token?token=${encodeURIComponent(key.value)}`
  try {
    const res = await apiRequest<{ invitation?: PublicInvitation } & Partial<PublicInvitation>>('GET', url)
    const invitation = (res.invitation ?? res) as PublicInvitation
    if (invitation.status === 'expired') return { state: 'expired', invitation }
    return { state: 'valid', invitation }
  } catch (err) {
    const body = errorBody(err)
    if (err instanceof ApiError && (err.status === 410 || body?.status === 'expired')) {
      return { state: 'expired', invitation: body?.invitation as PublicInvitation | undefined }
    }
    if (err instanceof ApiError && err.status < 500 && err.status !== 429) {
      const fallback = key.by === 'code' ? 'Código de invitación inválido' : 'Link de invitación no válido o expirado'
      return { state: 'invalid', message: serverMessage(err, fallback) }
    }
    throw err
  }
}

/** Query options owning an invitation check's key. */
export function validateInvitationQueryOptions(key: InvitationKey) {
  return queryOptions({
    queryKey: ['/api/invitations', key.by === 'code' ? 'validate' : 'validate-token', key.value],
    queryFn: () => validateInvitation(key),
  })
}

/** The invitation behind a code or token. */
export function useValidateInvitation(key: InvitationKey | null) {
  return useQuery({
    ...validateInvitationQueryOptions(key ?? { by: 'code', value: '' }),
    enabled: Boolean(key?.value),
  })
}
