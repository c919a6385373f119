import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
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
  const client = useQueryClient()
  const onSuccess = () => client.invalidateQueries({ queryKey: teamQueryOptions.queryKey })
  return {
    invite: useMutation({
      mutationFn: (input: { email: string; name: string; role: PartnerRole }) =>
        apiRequest<EnrolmentLink>('POST', '/api/socios/users', input),
      onSuccess,
    }),
    setRole: useMutation({
      mutationFn: ({ id, role }: { id: number; role: PartnerRole }) => apiRequest<PartnerUser>('PUT', `/api/socios/users/${id}`, { role }),
      onSuccess,
    }),
    disable: useMutation({
      mutationFn: (id: number) => apiRequest<PartnerUser>('POST', `/api/socios/users/${id}/disable`),
      onSuccess,
    }),
    newLink: useMutation({
      mutationFn: (id: number) => apiRequest<EnrolmentLink>('POST', `/api/socios/users/${id}/enrolment`),
      onSuccess,
    }),
  }
}
