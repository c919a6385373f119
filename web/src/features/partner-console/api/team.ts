import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { useRefetchingMutation } from '@/lib/refetching-mutation'
import type { EnrolmentLink, PartnerRole, PartnerUser } from '../types'

// The platform's team: list; a propietario invites (the link comes back once), changes roles,
// disables and issues new enrolment links.

/** Query options owning the team. */
export const teamQueryOptions = queryOptions({
  queryKey: ['partner-console', 'users'],
  queryFn: () => apiRequest<PartnerUser[]>('GET', '/api/socios/users'),
})

/** The team, active people first. */
export function useTeam() {
  return useQuery(teamQueryOptions)
}

/** What a propietario does to the team; each refetches it. */
export function useTeamMutations() {
  const team = teamQueryOptions.queryKey
  return {
    invite: useRefetchingMutation(
      (input: { email: string; name: string; role: PartnerRole }) => apiRequest<EnrolmentLink>('POST', '/api/socios/users', input),
      team,
    ),
    setRole: useRefetchingMutation(
      ({ id, role }: { id: number; role: PartnerRole }) => apiRequest<PartnerUser>('PUT', `/api/socios/users/${id}`, { role }),
      team,
    ),
    disable: useRefetchingMutation((id: number) => apiRequest<PartnerUser>('POST', `/api/socios/users/${id}/disable`), team),
    newLink: useRefetchingMutation((id: number) => apiRequest<EnrolmentLink>('POST', `/api/socios/users/${id}/enrolment`), team),
  }
}
