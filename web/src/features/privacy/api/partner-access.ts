import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'

/** What the person shared with one platform (GET /api/users/{id}/partner-access). */
export type PartnerGrant = {
  id: number
  partnerName: string
  domain: string
  claims: Array<
    'name' | 'profileId' | 'validUntil' | 'level' | 'givenName' | 'familyName' | 'birthdate' | 'ageOver18' | 'nationality' | 'curp'
  >
  via: 'session' | 'invitation' | 'presentation'
  grantedAt: string
  revokedAt: string | null
}

/** A business that keeps an anti-money-laundering file about the person (LFPIORPI), and until when (YYYY-MM-DD). */
export type AMLFileKept = {
  partnerName: string
  until: string
}

/** The claims as the person reads them (the hosted flow's words). */
export const claimLabels: Record<PartnerGrant['claims'][number], string> = {
  name: 'Tu nombre completo',
  profileId: 'Tu ID de perfil',
  validUntil: 'La vigencia de tu validación',
  level: 'Tu nivel de verificación',
  givenName: 'Tu nombre (como aparece en tu identificación)',
  familyName: 'Tus apellidos',
  birthdate: 'Tu fecha de nacimiento',
  ageOver18: 'Que eres mayor de 18 años (sin tu fecha de nacimiento)',
  nationality: 'Tu nacionalidad',
  curp: 'Tu CURP',
}

/** Query options owning a person's partner-access key. */
export function partnerAccessQueryOptions(userId: string) {
  return queryOptions({
    queryKey: ['/api/users', userId, 'partner-access'],
    queryFn: () => apiRequest<{ grants: PartnerGrant[]; amlFiles?: AMLFileKept[] }>('GET', `/api/users/${encodeURIComponent(userId)}/partner-access`),
  })
}

/** The platforms the person shared with. */
export function usePartnerAccess(userId: string) {
  return useQuery(partnerAccessQueryOptions(userId))
}

/** Withdraws one platform's access (DELETE /api/users/{id}/partner-access/{grantId}). */
export function useRevokePartnerAccess(userId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (grantId: number) =>
      apiRequest<PartnerGrant>('DELETE', `/api/users/${encodeURIComponent(userId)}/partner-access/${grantId}`),
    onSuccess: () => client.invalidateQueries({ queryKey: partnerAccessQueryOptions(userId).queryKey }),
  })
}
