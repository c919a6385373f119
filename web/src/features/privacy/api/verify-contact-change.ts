import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { arcoRequestsQueryOptions } from './get-arco-requests'
import type { PrivacyUser } from './update-personal-data'

/**
 * POST /api/users/{id}/contact-change/verify: the code sent to the new address; answers the
 * updated user. A wrong code is 400, an address another account uses 409, too many tries 429.
 */
export function verifyContactChange({ userId, code }: { userId: string; code: string }): Promise<PrivacyUser> {
  return apiRequest<PrivacyUser>('POST', `/api/users/${encodeURIComponent(userId)}/contact-change/verify`, { code })
}

/** Confirms a contact change, then refetches the requests (a correction is a rectification request). */
export function useVerifyContactChange() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: verifyContactChange,
    onSuccess: (_, { userId }) => client.invalidateQueries({ queryKey: arcoRequestsQueryOptions(userId).queryKey }),
  })
}
