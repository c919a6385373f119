import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiFetch } from '@/lib/api-client'
import { usersQueryOptions } from './get-users'

/** DELETE /api/users/{id}; the body is not read (SPEC §7). */
export async function deleteUser(id: number): Promise<void> {
  await apiFetch('DELETE', `/api/users/${id}`)
}

/** Deletes a user, then refetches the list. */
export function useDeleteUser() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () => client.invalidateQueries({ queryKey: usersQueryOptions.queryKey }),
  })
}
