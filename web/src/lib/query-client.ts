import { QueryClient } from '@tanstack/react-query'
import { getQueryFn } from './api-client'

/** Query defaults of SPEC §7: no retry, no refetch on focus, no polling, never stale, 401 is an error. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  })
}

/** The app's query client. */
export const queryClient = createQueryClient()
