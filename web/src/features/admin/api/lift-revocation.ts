import { apiRequest } from '@/lib/api-client'
import type { AdminUser } from './get-users'
import { useValidationChange, type ValidationChange } from './validation-change'

/**
 * POST /api/admin/users/{id}/lift-revocation: lifts a revocation with a reason (administrador
 * only). The revoked validation does not come back; the person may validate again and is told by e-mail.
 */
export function liftRevocation({ id, motivo }: ValidationChange): Promise<AdminUser> {
  return apiRequest<AdminUser>('POST', `/api/admin/users/${id}/lift-revocation`, { motivo })
}

/** Lifts a revocation, then refetches the list and the profile's history. */
export function useLiftRevocation() {
  return useValidationChange(liftRevocation)
}
