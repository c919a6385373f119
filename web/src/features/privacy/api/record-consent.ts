import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { arcoRequestsQueryOptions } from './get-arco-requests'
import { consentsQueryOptions, type Consent, type ConsentPurpose } from './get-consents'

/** POST /api/users/{id}/consents input: granted defaults to true on the server. */
export type RecordConsentInput = { userId: string; purpose: ConsentPurpose; granted?: boolean }

/**
 * Records a decision for a purpose (201 with the consent). Withdrawing the notice is refused
 * (409 with the server's message).
 */
export function recordConsent({ userId, purpose, granted }: RecordConsentInput): Promise<Consent> {
  return apiRequest<Consent>('POST', `/api/users/${encodeURIComponent(userId)}/consents`, {
    purpose,
    ...(granted === undefined ? {} : { granted }),
  })
}

/** Records a consent, then refetches the consents and the requests (an objection may be one). */
export function useRecordConsent() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: recordConsent,
    onSuccess: (_, { userId }) =>
      Promise.all([
        client.invalidateQueries({ queryKey: consentsQueryOptions(userId).queryKey }),
        client.invalidateQueries({ queryKey: arcoRequestsQueryOptions(userId).queryKey }),
      ]),
  })
}
