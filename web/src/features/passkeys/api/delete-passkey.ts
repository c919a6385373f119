import { apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'
import { useRefetchingMutation } from '@/lib/refetching-mutation'
import { passkeysQueryOptions } from './get-passkeys'

/** DELETE /api/users/{id}/passkeys/{credentialId}: the passkey stops working at once. */
export function deletePasskey({ userId, id }: { userId: string; id: number }): Promise<Schema<'PasskeyDeleted'>> {
  return apiRequest<Schema<'PasskeyDeleted'>>('DELETE', `/api/users/${encodeURIComponent(userId)}/passkeys/${id}`)
}

/** Mutation hook for deletePasskey; refreshes the list. */
export function useDeletePasskey(userId: string) {
  return useRefetchingMutation((id: number) => deletePasskey({ userId, id }), passkeysQueryOptions(userId).queryKey)
}
