import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Mode, Usage } from '../types'

/** Query options owning a mode's monthly usage. */
export function usageQueryOptions(mode: Mode) {
  return queryOptions({
    queryKey: ['partner-console', 'usage', mode],
    queryFn: () => apiRequest<Usage>('GET', `/api/socios/usage?mode=${mode}`),
  })
}

/** Requests counted and sessions per month (12 months, newest first). */
export function useUsage(mode: Mode) {
  return useQuery(usageQueryOptions(mode))
}
