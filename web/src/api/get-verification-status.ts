import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'

// Shared by the header (every 30 s) and the profile (biometric polling).

/** GET /api/users/{id}/verification-status as the server may spell it. */
export type VerificationStatus = {
  verificationLevel?: number
  biometricVerified?: boolean
  biometric_verified?: boolean
  lastBiometricStatus?: string
  /** An administrator revoked the validation (not lifted): the level counts for nothing. */
  revoked?: boolean
  /** What the ID of the latest approved check certified (issue 52); null before one. */
  identity?: IdentityOutcome | null
  /** The profile's name is the one its ID gave. */
  nameFromDocument?: boolean
}

/** The verdicts of the identity check (identity.Verdict on the server). */
export type IdentityVerdict = 'match' | 'near' | 'no_document' | 'mismatch' | 'duplicate' | 'expired_document' | 'under_age'

/** What the ID of the latest approved check certified: never its CURP or number. */
export type IdentityOutcome = {
  verdict: IdentityVerdict
  /** The ID's name in proper case ('' when it gave none). */
  documentName: string
  findings: { code: string; text: string }[]
  checkedAt: string
  /** adopted (the person took the ID's name), approved / declined (an administrator's review); null while open. */
  resolution: 'adopted' | 'approved' | 'declined' | null
}

/** Reads a user's verification status. */
export function getVerificationStatus(userId: string): Promise<VerificationStatus> {
  return apiRequest<VerificationStatus>('GET', `/api/users/${encodeURIComponent(userId)}/verification-status`)
}

/** Whether the status says biometric verification is done (either spelling) and stands (not revoked). */
export function isBiometricVerified(status: VerificationStatus | null | undefined): boolean {
  return !status?.revoked && Boolean(status?.biometricVerified ?? status?.biometric_verified)
}

/** Query options owning the verification-status key of a user. */
export function verificationStatusQueryOptions(userId: string) {
  return queryOptions({
    queryKey: ['/api/users', userId, 'verification-status'],
    queryFn: () => getVerificationStatus(userId),
  })
}

/** The verification status of a user, refreshed every refetchMs when given. */
export function useVerificationStatus(userId: string | null, refetchMs: number | false = false) {
  return useQuery({
    ...verificationStatusQueryOptions(userId ?? ''),
    enabled: Boolean(userId),
    refetchInterval: refetchMs,
  })
}
