import { queryOptions, useQuery } from '@tanstack/react-query'
import { getQueryFn } from '@/lib/api-client'

/** Whatever GET /api/auth/status answers; only 401 versus success matters to the UI. */
export type AuthStatus = Record<string, unknown>

/** Query options for the session check: 401 becomes null, refetched on window focus, no retry. */
export function authStatusQueryOptions() {
  return queryOptions({
    queryKey: ['/api/auth/status'],
    queryFn: getQueryFn<AuthStatus>({ on401: 'returnNull' }),
    refetchOnWindowFocus: 'always',
    retry: false,
  })
}

/** The server's view of the session, asked only while the UI thinks someone is signed in. */
export function useAuthStatus(enabled: boolean) {
  return useQuery({ ...authStatusQueryOptions(), enabled })
}
