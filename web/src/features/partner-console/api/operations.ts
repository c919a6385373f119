import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { useRefetchingMutation } from '@/lib/refetching-mutation'
import type { Mode, NewOperation, Operation, OperationCandidate, OperationPage } from '../types'

// LFPIORPI operations (api/partner_console_operations.go): every role lists them; propietario
// and cumplimiento record one from the platform's completed sessions.

/** Query options owning a mode's operations, in keyset pages of 25. */
export function operationsQueryOptions(mode: Mode) {
  return infiniteQueryOptions({
    queryKey: ['partner-console', 'operations', mode],
    queryFn: ({ pageParam }) =>
      apiRequest<OperationPage>('GET', `/api/socios/operations?mode=${mode}${pageParam ? `&startingAfter=${pageParam}` : ''}`),
    initialPageParam: '',
    getNextPageParam: (last: OperationPage) => (last.hasMore ? last.data[last.data.length - 1]?.id : undefined),
  })
}

/** The platform's operations of a mode, newest first. */
export function useOperations(mode: Mode) {
  return useInfiniteQuery(operationsQueryOptions(mode))
}

/** Query options owning the completed sessions a person of an operation is chosen from. */
export function operationCandidatesQueryOptions(mode: Mode) {
  return queryOptions({
    queryKey: ['partner-console', 'operation-candidates', mode],
    queryFn: () => apiRequest<{ mode: Mode; data: OperationCandidate[] }>('GET', `/api/socios/operation-candidates?mode=${mode}`),
  })
}

/** The completed sessions of a mode (only asked for by roles that record operations). */
export function useOperationCandidates(mode: Mode, enabled: boolean) {
  return useQuery({ ...operationCandidatesQueryOptions(mode), enabled })
}

/** Records an operation in a mode; the list refetches. */
export function useCreateOperation(mode: Mode) {
  return useRefetchingMutation(
    (input: NewOperation) => apiRequest<Operation>('POST', `/api/socios/operations?mode=${mode}`, input),
    operationsQueryOptions(mode).queryKey,
  )
}
