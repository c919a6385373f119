import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Mode, NewKey, PartnerKey } from '../types'

// The platform's keys: list by mode, create (the full key comes back once), revoke.

/** Query options owning a mode's keys. */
export function keysQueryOptions(mode: Mode) {
  return queryOptions({
    queryKey: ['partner-console', 'keys', mode],
    queryFn: () => apiRequest<PartnerKey[]>('GET', `/api/socios/keys?mode=${mode}`),
  })
}

/** The keys of a mode, newest first, revoked ones included. */
export function useKeys(mode: Mode) {
  return useQuery(keysQueryOptions(mode))
}

/** Creates a key (POST /api/socios/keys) or revokes one, then refetches the lists. */
export function useKeyMutations() {
  const client = useQueryClient()
  const onSuccess = () => client.invalidateQueries({ queryKey: ['partner-console', 'keys'] })
  return {
    create: useMutation({
      mutationFn: (input: { kind: PartnerKey['kind']; mode: Mode }) => apiRequest<NewKey>('POST', '/api/socios/keys', input),
      onSuccess,
    }),
    revoke: useMutation({
      mutationFn: (id: number) => apiRequest<PartnerKey>('POST', `/api/socios/keys/${id}/revoke`),
      onSuccess,
    }),
  }
}
