import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'
import { passkeysQueryOptions } from './get-passkeys'

/** DELETE /api/users/{id}/passkeys/{credentialId}: the passkey stops working at once. */
export function deletePasskey({ userId, id }: { userId: string; id: number }): Promise<Schema<'PasskeyDeleted'>> {
  return apiRequest<Schema<'PasskeyDeleted'>>('DELETE', `/api/users/${encodeURIComponent(userId)}/passkeys/${id}`)
}

/** Mutation hook for deletePasskey; refreshes the list. */
export function useDeletePasskey(userId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => deletePasskey({ userId, id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeysQueryOptions(userId).queryKey }),
  })
}
