import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { ConsoleMe } from '../types'
import { consoleMeQueryOptions } from './get-console-me'

/** Changes the platform's allowed origin (PUT /api/socios/origin); the session's partner follows. */
export function useSetOrigin() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (origin: string) => apiRequest<{ origin: string; message: string }>('PUT', '/api/socios/origin', { origin }),
    onSuccess: ({ origin }) =>
      client.setQueryData(consoleMeQueryOptions.queryKey, (me: ConsoleMe | null | undefined) =>
        me ? { ...me, partner: { ...me.partner, domain: origin } } : me,
      ),
  })
}
