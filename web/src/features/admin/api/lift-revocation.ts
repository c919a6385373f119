import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { AdminUser } from './get-users'
import { lifecycleQueryKey } from './get-lifecycle'
import { usersQueryOptions } from './get-users'
import { withFreshPasskey } from './admin-passkey'

/**
 * POST /api/admin/users/{id}/lift-revocation: lifts a revocation with a reason (administrador
 * only). The revoked validation does not come back; the person may validate again and is told by e-mail.
 */
export function liftRevocation({ id, motivo }: { id: number; motivo: string }): Promise<AdminUser> {
  return apiRequest<AdminUser>('POST', `/api/admin/users/${id}/lift-revocation`, { motivo })
}

/** Lifts a revocation, then refetches the list and the profile's history. */
export function useLiftRevocation() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (v: { id: number; motivo: string }) => withFreshPasskey(() => liftRevocation(v)),
    onSuccess: (_, { id }) => {
      void client.invalidateQueries({ queryKey: usersQueryOptions.queryKey })
      void client.invalidateQueries({ queryKey: lifecycleQueryKey(id) })
    },
  })
}
