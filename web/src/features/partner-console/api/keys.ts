import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { useRefetchingMutation } from '@/lib/refetching-mutation'
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
  const keys = ['partner-console', 'keys']
  return {
    create: useRefetchingMutation(
      (input: { kind: PartnerKey['kind']; mode: Mode }) => apiRequest<NewKey>('POST', '/api/socios/keys', input),
      keys,
    ),
    revoke: useRefetchingMutation((id: number) => apiRequest<PartnerKey>('POST', `/api/socios/keys/${id}/revoke`), keys),
  }
}
