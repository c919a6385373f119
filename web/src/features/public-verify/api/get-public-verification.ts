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

/**
 * The answer the server put in the page of /verify/{profileId} (api/spa_public.go: the same JSON
 * GET /api/verify/{profileId} gives), so the card paints on first render without a second
 * request; undefined for another profile, a page without it or a block that does not parse.
 */
export function embeddedPublicVerification(profileId: string): PublicVerification | undefined {
  const block = typeof document === 'undefined' ? null : document.getElementById('ps-public-record')
  if (block?.getAttribute('type') !== 'application/json' || !block.textContent) return undefined
  try {
    const record = JSON.parse(block.textContent) as PublicVerification
    return record?.profile?.id === profileId ? record : undefined
  } catch {
    return undefined
  }
}

/** Query options of one public verification, starting from the page's embedded answer if any. */
export function publicVerificationQueryOptions(profileId: string) {
  const embedded = embeddedPublicVerification(profileId)
  return queryOptions({
    queryKey: ['/api/verify', profileId],
    queryFn: () => getPublicVerification(profileId),
    refetchInterval: PUBLIC_REFRESH_MS,
    initialData: embedded,
    // The page's answer is fresh as it arrives: the next refresh comes 30 s later, not at once.
    initialDataUpdatedAt: embedded ? Date.now() : undefined,
    staleTime: embedded ? PUBLIC_REFRESH_MS : 0,
  })
}

/** The public verification of a profile, refreshed every 30 seconds; disabled for a malformed id. */
export function usePublicVerification(profileId: string) {
  return useQuery({ ...publicVerificationQueryOptions(profileId), enabled: PROFILE_ID_PATTERN.test(profileId) })
}
