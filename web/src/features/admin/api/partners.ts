import { queryOptions, useMutation, useQuery } from '@tanstack/react-query'
import { apiFetch, apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'
import { useRefetchingMutation } from '@/lib/refetching-mutation'
import { withFreshPasskey } from './admin-passkey'

// The partner (api_keys) calls of the admin panel; one small module because
// the four calls share one key and one type.

/** A widget partner. */
export type Partner = Schema<'Partner'>

/** A partner just created, with its four first keys (the secret ones appear only in this answer). */
export type CreatedPartner = Schema<'CreatedPartner'>

/** The partner creation payload (SPEC §5). */
export type PartnerInput = Schema<'PartnerRequest'>

/** A partner's console role (/socios). */
export type PartnerConsoleRole = 'propietario' | 'desarrollador' | 'cumplimiento' | 'lectura'

/** A person invited to a partner's console (POST /api/admin/partners/{id}/users). */
export type PartnerUserInvite = { email: string; name: string; role: PartnerConsoleRole }

/** The answer to an invitation: the enrolment link, shown once (api.PartnerEnrolmentResponse). */
export type PartnerUserEnrolment = {
  user: { id: number; email: string; name: string; role: PartnerConsoleRole }
  enrolmentUrl: string
  expiresAt: string
  message: string
}

/** Query options owning the partners key. */
export const partnersQueryOptions = queryOptions({
  queryKey: ['/api/admin/partners'],
  queryFn: () => apiRequest<Partner[]>('GET', '/api/admin/partners'),
})

/** The partners list. */
export function usePartners() {
  return useQuery(partnersQueryOptions)
}

/** Creates, deactivates, reactivates or deletes a partner (then refetches the list), or invites someone to its console. */
export function usePartnerMutations() {
  const partners = partnersQueryOptions.queryKey
  return {
    create: useRefetchingMutation(
      (input: PartnerInput) => withFreshPasskey(() => apiRequest<CreatedPartner>('POST', '/api/admin/partners', input)),
      partners,
    ),
    deactivate: useRefetchingMutation((id: number) => apiRequest<Partner>('POST', `/api/admin/partners/${id}/deactivate`), partners),
    activate: useRefetchingMutation((id: number) => apiRequest<Partner>('POST', `/api/admin/partners/${id}/activate`), partners),
    inviteUser: useMutation({
      mutationFn: ({ partnerId, ...input }: PartnerUserInvite & { partnerId: number }) =>
        withFreshPasskey(() => apiRequest<PartnerUserEnrolment>('POST', `/api/admin/partners/${partnerId}/users`, input)),
    }),
    remove: useRefetchingMutation(
      (id: number) =>
        withFreshPasskey(async () => {
          await apiFetch('DELETE', `/api/admin/partners/${id}`)
        }),
      partners,
    ),
  }
}
