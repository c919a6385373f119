import { apiRequest } from '@/lib/api-client'
import type { ArcoState } from '@/lib/arco'
import { useRefetchingMutation } from '@/lib/refetching-mutation'
import { adminArcoRequestsKey, type AdminArcoRequest } from './get-arco-requests'

/** PUT /api/admin/arco-requests/{id} payload: the new state and what was answered. */
export type ResolveArcoRequestInput = { id: number; state: Extract<ArcoState, 'atendida' | 'rechazada'>; resolution: string }

/** Closes a request as answered or rejected, with the answer given. */
export function resolveArcoRequest({ id, ...body }: ResolveArcoRequestInput): Promise<AdminArcoRequest> {
  return apiRequest<AdminArcoRequest>('PUT', `/api/admin/arco-requests/${id}`, body)
}

/** Resolves a request, then refetches the queue. */
export function useResolveArcoRequest() {
  return useRefetchingMutation(resolveArcoRequest, adminArcoRequestsKey)
}
