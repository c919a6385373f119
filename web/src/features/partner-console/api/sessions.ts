import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Mode, SessionPage } from '../types'

/** Query options owning a mode's verification sessions, in keyset pages of 25. */
export function sessionsQueryOptions(mode: Mode) {
  return infiniteQueryOptions({
    queryKey: ['partner-console', 'sessions', mode],
    queryFn: ({ pageParam }) =>
      apiRequest<SessionPage>('GET', `/api/socios/sessions?mode=${mode}${pageParam ? `&startingAfter=${pageParam}` : ''}`),
    initialPageParam: '',
    getNextPageParam: (last: SessionPage) => (last.hasMore ? last.data[last.data.length - 1]?.id : undefined),
  })
}

/** The platform's verification sessions of a mode, newest first. */
export function useSessions(mode: Mode) {
  return useInfiniteQuery(sessionsQueryOptions(mode))
}
