import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { ConsoleMe, OriginProof } from '../types'
import { consoleMeQueryOptions } from './get-console-me'

/** Query options owning the origin's proof (GET /api/socios/origin). */
export const originProofQueryOptions = queryOptions({
  queryKey: ['partner-console', 'origin'],
  queryFn: () => apiRequest<OriginProof>('GET', '/api/socios/origin'),
})

/** Where the platform stands in proving its origin: the TXT record or file, and the last check. */
export function useOriginProof() {
  return useQuery(originProofQueryOptions)
}

/** Asks the worker to check the TXT record and the file now (POST /api/socios/origin/verify). */
export function useVerifyOrigin() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: () => apiRequest<OriginProof>('POST', '/api/socios/origin/verify'),
    onSuccess: () => {
      // The worker answers in seconds: look again a little later.
      window.setTimeout(() => void client.invalidateQueries({ queryKey: originProofQueryOptions.queryKey }), 3000)
    },
  })
}

/** Changes the platform's allowed origin (PUT /api/socios/origin); the session's partner follows. */
export function useSetOrigin() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (origin: string) => apiRequest<{ origin: string; message: string }>('PUT', '/api/socios/origin', { origin }),
    onSuccess: ({ origin }) => {
      client.setQueryData(consoleMeQueryOptions.queryKey, (me: ConsoleMe | null | undefined) =>
        me ? { ...me, partner: { ...me.partner, domain: origin } } : me,
      )
      void client.invalidateQueries({ queryKey: originProofQueryOptions.queryKey })
    },
  })
}
