import { useMutation } from '@tanstack/react-query'
import {
  startAuthentication,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser'
import { apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'

/** The options for navigator.credentials, as the API sends them. */
export type PasskeyOptions = Schema<'PasskeyOptionsJSON'>

/** A sign-in answer: the same as a code sign-in's (POST /api/verify-code). */
export type PasskeySignInResponse = Schema<'VerifyCodeResponse'>

/** POST /api/auth/passkey/options: a discoverable sign-in's options (sets the ps_webauthn cookie). */
export function getSignInOptions(): Promise<PasskeyOptions> {
  return apiRequest<PasskeyOptions>('POST', '/api/auth/passkey/options')
}

/** POST /api/auth/passkey/verify: checks the browser's answer and starts the session. */
export function verifyPasskeySignIn(credential: AuthenticationResponseJSON): Promise<PasskeySignInResponse> {
  return apiRequest<PasskeySignInResponse>('POST', '/api/auth/passkey/verify', credential)
}

/**
 * Signs in with a passkey: the options (fetched here unless given), the browser's passkey window
 * (or, with autofill, the passkeys offered in the e-mail field's suggestions), then the server's
 * check.
 */
export async function signInWithPasskey({
  autofill = false,
  options,
}: { autofill?: boolean; options?: PasskeyOptions } = {}): Promise<PasskeySignInResponse> {
  options ??= await getSignInOptions()
  const credential = await startAuthentication({
    optionsJSON: options.publicKey as unknown as PublicKeyCredentialRequestOptionsJSON,
    useBrowserAutofill: autofill,
  })
  return verifyPasskeySignIn(credential)
}

/** Mutation hook for signInWithPasskey. */
export function useSignInWithPasskey() {
  return useMutation({ mutationFn: signInWithPasskey })
}
