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
