import { apiRequest } from '@/lib/api-client'
import { useRefetchingMutation } from '@/lib/refetching-mutation'
import { passkeysQueryOptions, type Passkey } from './get-passkeys'

/** PATCH /api/users/{id}/passkeys/{credentialId}: a new name (1 to 60 characters). */
export function renamePasskey({ userId, id, name }: { userId: string; id: number; name: string }): Promise<Passkey> {
  return apiRequest<Passkey>('PATCH', `/api/users/${encodeURIComponent(userId)}/passkeys/${id}`, { name })
}

/** Mutation hook for renamePasskey; refreshes the list. */
export function useRenamePasskey(userId: string) {
  return useRefetchingMutation(
    ({ id, name }: { id: number; name: string }) => renamePasskey({ userId, id, name }),
    passkeysQueryOptions(userId).queryKey,
  )
}
