import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { withFreshPasskey } from './admin-passkey'

// Local types until the server's schema is regenerated into lib/api-schema.d.ts
// (api/admin_identity_reviews.go: IdentityCheckJSON, AdminUserIdentityJSON).

/** What the identity document says; the CURP and the number come masked ("GODE…09"). */
export type IdentityDocument = {
  type: string
  issuingCountry: string
  issuingState: string
  givenNames: string
  firstSurname: string
  secondSurname: string
  fullName: string
  /** YYYY-MM-DD */
  birthDate: string | null
  sex: string
  nationality: string
  issueDate: string | null
  expiryDate: string | null
  curp: string | null
  number: string | null
}

/** The verdicts of the identity assessment (identity.Verdict). */
export type IdentityVerdict = 'match' | 'near' | 'no_document' | 'mismatch' | 'duplicate' | 'expired_document' | 'under_age'

/** One registry's answer on one field. */
export type RegistryResult = { registry: string; field: string; result: 'match' | 'partial_match' | 'no_match' | 'not_available' }

/** An approved check's identity assessment, as the review queue and the user view read it. */
export type IdentityCheck = {
  verificationId: number
  userId: number
  profileId: string
  /** The profile's name: typed at registration unless a document certified it. */
  typedName: string
  /** The document's name in proper case ('' without one). */
  documentName: string
  verdict: IdentityVerdict
  document: IdentityDocument | null
  age: number | null
  findings: { code: string; text: string }[]
  /** The name matcher's score, 0..1. */
  nameScore: number | null
  /** null: the document gave no CURP. */
  curpValid: boolean | null
  registry: RegistryResult[]
  scores: { faceMatch: number | null; liveness: number | null; document: number | null; overall: number | null }
  checkedAt: string
  resolution: 'adopted' | 'approved' | 'declined' | null
  resolvedAt: string | null
  resolutionReason: string | null
}

/** Another profile tied to this one by the same identity document. */
export type LinkedProfile = {
  userId: number
  profileId: string
  nombre: string
  verificationId: number
  /** holder: the other profile holds the document this one presented; presenter: the other presented this one's. */
  relation: 'holder' | 'presenter'
  at: string
}

/** The identity part of the admin user view. */
export type AdminUserIdentity = { check: IdentityCheck | null; nameFromDocument: boolean; linked: LinkedProfile[] }

/** The key of the queue; a decision refetches it. */
export const identityReviewsKey = ['/api/admin/identity-reviews'] as const

/** GET /api/admin/identity-reviews: the checks waiting for review, oldest first. */
export async function getIdentityReviews(): Promise<IdentityCheck[]> {
  const res = await apiRequest<{ reviews: IdentityCheck[] }>('GET', '/api/admin/identity-reviews')
  return res.reviews
}

/** The review queue. */
export function useIdentityReviews() {
  return useQuery(queryOptions({ queryKey: identityReviewsKey, queryFn: getIdentityReviews }))
}

/** A decision on a review: approve (the document's name), or decline with a reason. */
export type IdentityReviewDecision = { verificationId: number; approve: true } | { verificationId: number; approve: false; reason: string }

/** POST /api/admin/identity-reviews/{id}/approve or /decline. */
export function decideIdentityReview(d: IdentityReviewDecision): Promise<IdentityCheck> {
  const path = `/api/admin/identity-reviews/${d.verificationId}/${d.approve ? 'approve' : 'decline'}`
  return apiRequest<IdentityCheck>('POST', path, d.approve ? {} : { reason: d.reason })
}

/** Decides a review behind a fresh passkey confirmation, then refetches the queue and the users. */
export function useDecideIdentityReview() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (d: IdentityReviewDecision) => withFreshPasskey(() => decideIdentityReview(d)),
    onSuccess: (check) => {
      void client.invalidateQueries({ queryKey: identityReviewsKey })
      void client.invalidateQueries({ queryKey: ['/api/users'] })
      void client.invalidateQueries({ queryKey: userIdentityKey(check.userId) })
    },
  })
}

/** The key of one user's identity view. */
export function userIdentityKey(userId: number) {
  return ['/api/admin/users', userId, 'identity'] as const
}

/** GET /api/admin/users/{id}/identity: the certifying document, the latest check, the linked profiles. */
export function getUserIdentity(userId: number): Promise<AdminUserIdentity> {
  return apiRequest<AdminUserIdentity>('GET', `/api/admin/users/${userId}/identity`)
}

/** One user's identity view. */
export function useUserIdentity(userId: number) {
  return useQuery(queryOptions({ queryKey: userIdentityKey(userId), queryFn: () => getUserIdentity(userId) }))
}
