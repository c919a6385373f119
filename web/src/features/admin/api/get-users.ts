import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'

/** A user as the admin table reads it (SPEC §3 'As read by the clients'). */
export type AdminUser = {
  id: number
  nombre: string
  email?: string | null
  phoneNumber?: string | null
  origen: string
  inviterName?: string | null
  vigencia: number
  id_validado: string
  fecha_validacion?: string | null
  qr_url?: string | null
  /** When the expiry was recorded (the validity ended). */
  expiredAt?: string | null
  /** When an administrator revoked the validation, and why. */
  revokedAt?: string | null
  revokedReason?: string | null
}

/** GET /api/users: the whole list (the table filters on the client, SPEC §2). */
export function getUsers(): Promise<AdminUser[]> {
  return apiRequest<AdminUser[]>('GET', '/api/users')
}

/** Query options owning the users list key; saves invalidate it. */
export const usersQueryOptions = queryOptions({ queryKey: ['/api/users'], queryFn: getUsers })

/** The admin users list. */
export function useUsers() {
  return useQuery(usersQueryOptions)
}
