import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'

/** A user as the admin table reads it (SPEC §3 'As read by the clients'). */
export type AdminUser = Schema<'UserJSON'>

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
