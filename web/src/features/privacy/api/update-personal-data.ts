import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'
import { arcoRequestsQueryOptions } from './get-arco-requests'

/** A user as the server answers it. */
export type PrivacyUser = Schema<'UserJSON'>

/** PUT /api/users/{id}/personal-data input. */
export type UpdatePersonalDataInput = {
  userId: string
  nombre: string
  /** Required (or 409) when a validated person changes their name: the validation ends. */
  confirmRevalidation?: boolean
}

/** Corrects one's name (rectificación); answers the updated user. */
export function updatePersonalData({ userId, nombre, confirmRevalidation }: UpdatePersonalDataInput): Promise<PrivacyUser> {
  return apiRequest<PrivacyUser>('PUT', `/api/users/${encodeURIComponent(userId)}/personal-data`, {
    nombre,
    ...(confirmRevalidation ? { confirmRevalidation: true } : {}),
  })
}

/** Corrects one's name, then refetches the requests (a correction is a rectification request). */
export function useUpdatePersonalData() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: updatePersonalData,
    onSuccess: (_, { userId }) => client.invalidateQueries({ queryKey: arcoRequestsQueryOptions(userId).queryKey }),
  })
}
