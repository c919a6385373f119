import { queryOptions, useQuery } from '@tanstack/react-query'
import { getQueryFn } from '@/lib/api-client'

/** How the profile finds a user without a stored id. */
export type UserLookup = { by: 'profileId' | 'email' | 'sessionToken'; value: string }

/** GET /api/users/search answer: the user (id) and flags that send the visitor to /register. */
export type UserSearchResult = { id: number | string; expired?: boolean; unauthorized?: boolean } & Record<string, unknown>

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
