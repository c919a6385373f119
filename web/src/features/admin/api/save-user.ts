import { apiRequest } from '@/lib/api-client'
import type { AdminUser } from './get-users'
import { usersQueryOptions } from './get-users'
import type { Schema } from '@/lib/api-types'
import { useRefetchingMutation } from '@/lib/refetching-mutation'

/** The admin user payload of SPEC §7: vigencia is a number. */
export type AdminUserInput = Schema<'AdminUserRequest'>

/** POST /api/users: creates a validated user; the answer carries id_validado. */
export function createUser(input: AdminUserInput): Promise<AdminUser> {
  return apiRequest<AdminUser>('POST', '/api/users', input)
}

/** PUT /api/users/{id}. */
export function updateUser(id: number, input: AdminUserInput): Promise<AdminUser> {
  return apiRequest<AdminUser>('PUT', `/api/users/${id}`, input)
}

/** Creates (id null) or updates a user, then refetches the list (SPEC §7). */
export function useSaveUser() {
  return useRefetchingMutation(
    ({ id, input }: { id: number | null; input: AdminUserInput }) => id === null ? createUser(input) : updateUser(id, input),
    usersQueryOptions.queryKey,
  )
}
