import { useMutation } from '@tanstack/react-query'
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser'
import { apiRequest } from '@/lib/api-client'
import type { Confirmation } from './confirm-identity'

/**
 * Confirms a sensitive action with one of the person's passkeys instead of a code: the server's
 * options (only this person's passkeys), the browser's passkey window, then the server's check.
 * The server answers 409 when the person has no passkey.
 */
export async function confirmWithPasskey(userId: string): Promise<Confirmation> {
  const base = `/api/users/${encodeURIComponent(userId)}/confirmation/passkey`
  const options = await apiRequest<{ publicKey: unknown }>('POST', `${base}/options`)
  const credential = await startAuthentication({ optionsJSON: options.publicKey as PublicKeyCredentialRequestOptionsJSON })
  return apiRequest<Confirmation>('POST', base, credential)
}

/** Mutation hook for confirmWithPasskey. */
export function useConfirmWithPasskey() {
  return useMutation({ mutationFn: confirmWithPasskey })
}
