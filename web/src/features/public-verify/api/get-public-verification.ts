import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'

/** SPEC §3 'Public verify response': contact data comes masked from the server. */
export type PublicVerification = {
  profile: {
    nombre: string
    telefono: string | null
    email: string | null
    origen: string
    id: string
    nivel_verificacion: number
    verificado: boolean
    expirado: boolean
    /** An administrator revoked the validation (DECISIONS.md: shown as Revocado). */
    revocado: boolean
    fecha_revocacion: string | null
    fecha_validacion: string | null
    fecha_expiracion: string | null
    vigencia_anos: number
  }
  verification_details: {
    session_id: string | null
    ambiente: string | null
    fecha_verificacion: string | null
    scores: { overall: number | null; face_match: number | null; document: number | null; liveness: number | null }
  } | null
  timestamp: string
}

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
