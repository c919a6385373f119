import { apiRequest } from '@/lib/api-client'
import type { AdminUser } from './get-users'
import { useValidationChange, type ValidationChange } from './validation-change'

/** POST /api/admin/users/{id}/revoke: revokes the validation with a reason; the account stays. */
export function revokeProfile({ id, motivo }: ValidationChange): Promise<AdminUser> {
  return apiRequest<AdminUser>('POST', `/api/admin/users/${id}/revoke`, { motivo })
}

/** Revokes a profile, then refetches the list and its history. */
export function useRevokeProfile() {
  return useValidationChange(revokeProfile)
}
