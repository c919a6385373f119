import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { AdminUser } from './get-users'
import { lifecycleQueryKey } from './get-lifecycle'
import { usersQueryOptions } from './get-users'
import { withFreshPasskey } from './admin-passkey'

/** POST /api/admin/users/{id}/revoke: revokes the validation with a reason; the account stays. */
export function revokeProfile({ id, motivo }: { id: number; motivo: string }): Promise<AdminUser> {
  return apiRequest<AdminUser>('POST', `/api/admin/users/${id}/revoke`, { motivo })
}

/** Revokes a profile, then refetches the list and its history. */
export function useRevokeProfile() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (v: { id: number; motivo: string }) => withFreshPasskey(() => revokeProfile(v)),
    onSuccess: (_, { id }) => {
      void client.invalidateQueries({ queryKey: usersQueryOptions.queryKey })
      void client.invalidateQueries({ queryKey: lifecycleQueryKey(id) })
    },
  })
}
