import { apiRequest } from '@/lib/api-client'
import type { ArcoType } from '@/lib/arco'
import { useRefetchingMutation } from '@/lib/refetching-mutation'
import { adminArcoRequestsKey, type AdminArcoRequest } from './get-arco-requests'

/** POST /api/admin/arco-requests payload: a request that arrived by e-mail. */
export type CreateArcoRequestInput = { profileId: string; type: ArcoType; details: string }

/**
 * Records a request received by e-mail (201). A bad field is 400 with `errors` per field; an
 * unknown profile 404 with the server's message.
 */
export function createArcoRequest(input: CreateArcoRequestInput): Promise<AdminArcoRequest> {
  return apiRequest<AdminArcoRequest>('POST', '/api/admin/arco-requests', input)
}

/** Records a request, then refetches the queue. */
export function useCreateArcoRequest() {
  return useRefetchingMutation(createArcoRequest, adminArcoRequestsKey)
}
