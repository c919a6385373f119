import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'

/** SPEC §3 'Public verify response': contact data comes masked from the server. */
export type PublicVerification = Schema<'PublicVerifyResponse'>

/** The public page refreshes every 30 s (SPEC §9). */
export const PUBLIC_REFRESH_MS = 30_000

/** The profile ID shape PS-nnnn-nnnn-nn. */
export const PROFILE_ID_PATTERN = /^PS-\d{4}-\d{4}-\d{2}$/

/** GET /api/verify/{profileId}. */
export function getPublicVerification(profileId: string): Promise<PublicVerification> {
  return apiRequest<PublicVerification>('GET', `/api/verify/${encodeURIComponent(profileId)}`)
}

/** Query options of one public verification. */
export function publicVerificationQueryOptions(profileId: string) {
  return queryOptions({
    queryKey: ['/api/verify', profileId],
    queryFn: () => getPublicVerification(profileId),
    refetchInterval: PUBLIC_REFRESH_MS,
  })
}

/** The public verification of a profile, refreshed every 30 seconds; disabled for a malformed id. */
export function usePublicVerification(profileId: string) {
  return useQuery({ ...publicVerificationQueryOptions(profileId), enabled: PROFILE_ID_PATTERN.test(profileId) })
}
