import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { HitResolutionResult, HitStatus, Mode, Operation, PendingHits } from '../types'

// The compliance officer's review of possible hits (api/partner_console_aml_review.go): only
// propietario and cumplimiento read an operation's file and rule on its hits.

/** Query options owning one operation with its people's screenings and hits. */
export function operationDetailQueryOptions(mode: Mode, id: string) {
  return queryOptions({
    queryKey: ['partner-console', 'operation', mode, id],
    queryFn: () => apiRequest<Operation>('GET', `/api/socios/operations/${encodeURIComponent(id)}?mode=${mode}`),
  })
}

/** One operation of a mode with its people's screenings and hits. */
export function useOperationDetail(mode: Mode, id: string) {
  return useQuery(operationDetailQueryOptions(mode, id))
}

/** Query options owning the hits still waiting for a ruling in a mode. */
export function pendingHitsQueryOptions(mode: Mode) {
  return queryOptions({
    queryKey: ['partner-console', 'pending-hits', mode],
    queryFn: () => apiRequest<PendingHits>('GET', `/api/socios/hits/pending?mode=${mode}`),
  })
}

/** The pending hits of a mode (asked for only by roles that review them). */
export function usePendingHits(mode: Mode, enabled: boolean) {
  return useQuery({ ...pendingHitsQueryOptions(mode), enabled })
}

/** Rules on a hit; the operation, the pending count and the list refetch. */
export function useResolveHit(mode: Mode) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ hitId, decision, reason }: { hitId: number; decision: Exclude<HitStatus, 'pendiente'>; reason: string }) =>
      apiRequest<HitResolutionResult>('POST', `/api/socios/hits/${hitId}/resolution?mode=${mode}`, { decision, reason }),
    onSuccess: () =>
      Promise.all(
        [['partner-console', 'operation', mode], ['partner-console', 'pending-hits', mode], ['partner-console', 'operations', mode]].map(
          (queryKey) => client.invalidateQueries({ queryKey }),
        ),
      ),
  })
}
