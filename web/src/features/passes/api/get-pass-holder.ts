import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'

/** The user fields the validated-profile screen reads (GET /api/users/{id}). */
export type PassHolder = {
  id: number
  nombre?: string | null
  vigencia?: number | null
  id_validado?: string | null
  profileId?: string | null
  fecha_validacion?: string | null
  qr_url?: string | null
  verificationLevel?: number | null
  biometricVerified?: boolean | null
}

/** GET /api/users/{id}. */
export function getPassHolder(userId: string): Promise<PassHolder> {
  return apiRequest<PassHolder>('GET', `/api/users/${encodeURIComponent(userId)}`)
}

/** Query options of the pass holder (the same key as the profile's user record). */
export function passHolderQueryOptions(userId: string) {
  return queryOptions({ queryKey: ['/api/users', userId], queryFn: () => getPassHolder(userId) })
}

/** The signed-in user whose validated profile is shown. */
export function usePassHolder(userId: string | null) {
  return useQuery({ ...passHolderQueryOptions(userId ?? ''), enabled: Boolean(userId) })
}
