import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'

/** One of the person's passkeys. */
export type Passkey = Schema<'PasskeyJSON'>

/** GET /api/users/{id}/passkeys: the person's passkeys, oldest first. */
export function getPasskeys(userId: string): Promise<Passkey[]> {
  return apiRequest<Passkey[]>('GET', `/api/users/${encodeURIComponent(userId)}/passkeys`)
}

/** Query options owning a person's passkeys key; creating, renaming or deleting one invalidates it. */
export function passkeysQueryOptions(userId: string) {
  return queryOptions({ queryKey: ['/api/users', userId, 'passkeys'], queryFn: () => getPasskeys(userId) })
}

/** A person's passkeys. */
export function usePasskeys(userId: string) {
  return useQuery(passkeysQueryOptions(userId))
}
