import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser'
import { apiRequest } from '@/lib/api-client'
import { useRefetchingMutation } from '@/lib/refetching-mutation'
import type { PasskeyOptions } from './sign-in-with-passkey'
import { passkeysQueryOptions, type Passkey } from './get-passkeys'

/** POST /api/users/{id}/passkeys/options: the options to create a passkey. */
export function getRegistrationOptions(userId: string): Promise<PasskeyOptions> {
  return apiRequest<PasskeyOptions>('POST', `/api/users/${encodeURIComponent(userId)}/passkeys/options`)
}

/** Creates a passkey: the options, the browser's passkey window, then POST /api/users/{id}/passkeys. */
export async function createPasskey({ userId, name }: { userId: string; name?: string }): Promise<Passkey> {
  const options = await getRegistrationOptions(userId)
  const credential = await startRegistration({
    optionsJSON: options.publicKey as unknown as PublicKeyCredentialCreationOptionsJSON,
  })
  return apiRequest<Passkey>('POST', `/api/users/${encodeURIComponent(userId)}/passkeys`, name ? { name, credential } : { credential })
}

/** Mutation hook for createPasskey; refreshes the list. */
export function useCreatePasskey(userId: string) {
  return useRefetchingMutation((name?: string) => createPasskey({ userId, name }), passkeysQueryOptions(userId).queryKey)
}
