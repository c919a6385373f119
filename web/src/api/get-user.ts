import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'

// Shared by Mi Perfil and the validated profile screen (the pass holder): one request, one key.

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

/** A user's record: Mi Perfil's, and the validated profile's pass holder. */
export function useUser(userId: string | null) {
  return useQuery({ ...userQueryOptions(userId ?? ''), enabled: Boolean(userId) })
}
