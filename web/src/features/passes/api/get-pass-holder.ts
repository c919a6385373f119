import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'

/** The user fields the validated-profile screen reads (GET /api/users/{id}). */
export type PassHolder = Schema<'UserJSON'>

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
