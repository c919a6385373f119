import { queryOptions, useQuery } from '@tanstack/react-query'
import { getQueryFn } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'

/** How the profile finds a user without a stored id. */
export type UserLookup = { by: 'profileId' | 'email' | 'sessionToken'; value: string }

/** GET /api/users/search answer: the user (id) and flags that send the visitor to /register. */
export type UserSearchResult = Schema<'UserJSON'> & {
  /** The spec's client also reads these flags; this server never sends them (SPEC §7 fallback). */
  expired?: boolean
  unauthorized?: boolean
}

/** Query options for GET /api/users/search?{by}={value}; 401 yields null. */
export function searchUserQueryOptions(lookup: UserLookup) {
  const url = `/api/users/search?${new URLSearchParams({ [lookup.by]: lookup.value })}`
  return queryOptions({
    queryKey: [url],
    queryFn: getQueryFn<UserSearchResult>({ on401: 'returnNull' }),
  })
}

/** Looks a user up by profile id, e-mail or session token. */
export function useSearchUser(lookup: UserLookup | null) {
  return useQuery({
    ...searchUserQueryOptions(lookup ?? { by: 'profileId', value: '' }),
    enabled: lookup !== null,
  })
}
