import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { AdminUser } from './get-users'
import { lifecycleQueryKey } from './get-lifecycle'
import { usersQueryOptions } from './get-users'
import { withFreshPasskey } from './admin-passkey'

/** A change to a user's validation and the reason an administrator gives for it. */
export type ValidationChange = { id: number; motivo: string }

/** A mutation of a user's validation (revoke, lift) behind a fresh passkey; then refetches the list and the user's history. */
export function useValidationChange(change: (v: ValidationChange) => Promise<AdminUser>) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (v: ValidationChange) => withFreshPasskey(() => change(v)),
    onSuccess: (_, { id }) => {
      void client.invalidateQueries({ queryKey: usersQueryOptions.queryKey })
      void client.invalidateQueries({ queryKey: lifecycleQueryKey(id) })
    },
  })
}
