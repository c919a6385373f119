import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiFetch } from '@/lib/api-client'
import { usersQueryOptions } from './get-users'
import { withFreshPasskey } from './admin-passkey'

/** DELETE /api/users/{id}; the body is not read (SPEC §7). */
export async function deleteUser(id: number): Promise<void> {
  await apiFetch('DELETE', `/api/users/${id}`)
}

/**
 * Deletes a user, then refetches the list. The outcome callbacks run as the mutation's own (not
 * mutate()'s, which only fire while the observer that called them is subscribed): a deletion is
 * always reported, whatever re-renders while the list refetches.
 */
export function useDeleteUser({ onDeleted, onFailed }: { onDeleted?: () => void; onFailed?: (err: Error) => void } = {}) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => withFreshPasskey(() => deleteUser(id)),
    onSuccess: () => {
      onDeleted?.()
      return client.invalidateQueries({ queryKey: usersQueryOptions.queryKey })
    },
    onError: (err) => onFailed?.(err),
  })
}
