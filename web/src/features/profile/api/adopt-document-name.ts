import { useMutation } from '@tanstack/react-query'
import type { ProfileUser } from '@/api/get-user'
import { apiRequest } from '@/lib/api-client'

/**
 * POST /api/users/{id}/identity/adopt-document-name: the profile takes the name on the person's
 * ID (their registered name did not match it). Needs a confirmation of the last 5 minutes (403
 * otherwise); 409 when there is nothing to adopt or the ID certifies another profile.
 */
export function adoptDocumentName(userId: string): Promise<ProfileUser> {
  return apiRequest<ProfileUser>('POST', `/api/users/${encodeURIComponent(userId)}/identity/adopt-document-name`)
}

/** Mutation hook for adoptDocumentName. */
export function useAdoptDocumentName() {
  return useMutation({ mutationFn: adoptDocumentName })
}
