import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'

/** A user as the clients read it (SPEC §3 'As read by the clients'). */
export type ProfileUser = {
  id: number
  nombre: string
  email?: string | null
  phoneNumber?: string | null
  origen?: string | null
  inviterName?: string | null
  vigencia?: number | null
  id_validado?: string | null
  fecha_validacion?: string | null
  qr_url?: string | null
  verificationLevel?: number | null
  biometricVerified?: boolean | null
  profileId?: string | null
  /** End of the validity: fecha_validacion + vigencia years. */
  validUntil?: string | null
  /** When the expiry was recorded. */
  expiredAt?: string | null
  /** When an administrator revoked the validation, and why. */
  revokedAt?: string | null
  revokedReason?: string | null
}

/** GET /api/users/{id}. */
export function getUser(userId: string): Promise<ProfileUser> {
  return apiRequest<ProfileUser>('GET', `/api/users/${encodeURIComponent(userId)}`)
}

/** Query options owning a user's key. */
export function userQueryOptions(userId: string) {
  return queryOptions({ queryKey: ['/api/users', userId], queryFn: () => getUser(userId) })
}

/** The user record of the profile screen. */
export function useUser(userId: string | null) {
  return useQuery({ ...userQueryOptions(userId ?? ''), enabled: Boolean(userId) })
}
