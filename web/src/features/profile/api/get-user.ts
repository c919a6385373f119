import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'

/** A user as the clients read it (SPEC §3 'As read by the clients'). */
export type ProfileUser = Schema<'UserJSON'>

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
