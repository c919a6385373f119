import { apiRequest } from '@/lib/api-client'
import type { AdminUser } from './get-users'
import { usersQueryOptions } from './get-users'
import type { Schema } from '@/lib/api-types'
import { useRefetchingMutation } from '@/lib/refetching-mutation'
import { withFreshPasskey } from './admin-passkey'

/** The admin user payload of SPEC §7: vigencia is a number. */
export type AdminUserInput = Schema<'AdminUserRequest'>

/** POST /api/users: creates a validated user; the answer carries id_validado. */
export function createUser(input: AdminUserInput): Promise<AdminUser> {
  return apiRequest<AdminUser>('POST', '/api/users', input)
}

/**
 * An edit; confirmRevalidation acknowledges that a validated person's new name annuls their
 * validation (the server answers 409 with errors.confirmRevalidation without it).
 */
export type AdminUserEdit = AdminUserInput & { confirmRevalidation?: boolean }

/** PUT /api/users/{id}: a new name or e-mail needs a fresh passkey confirmation, asked for once. */
export function updateUser(id: number, input: AdminUserEdit): Promise<AdminUser> {
  return withFreshPasskey(() => apiRequest<AdminUser>('PUT', `/api/users/${id}`, input))
}

/** Creates (id null) or updates a user, then refetches the list (SPEC §7). */
export function useSaveUser() {
  return useRefetchingMutation(
    ({ id, input }: { id: number | null; input: AdminUserEdit }) => id === null ? createUser(input) : updateUser(id, input),
    usersQueryOptions.queryKey,
  )
}
