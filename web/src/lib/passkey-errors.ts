import { WebAuthnError } from '@simplewebauthn/browser'
import { serverMessage } from '@/lib/api-client'

/** True when the browser's passkey window was closed or the request was replaced by another. */
export function isPasskeyCancelled(err: unknown): boolean {
  if (err instanceof WebAuthnError) return err.code === 'ERROR_CEREMONY_ABORTED' || err.name === 'NotAllowedError' || err.name === 'AbortError'
  return err instanceof Error && (err.name === 'NotAllowedError' || err.name === 'AbortError')
}

/** The messages that depend on where a passkey is used: each names what the person can do there instead. */
export type PasskeyErrorWords = {
  /** The person closed the browser's passkey window. */
  cancelled: string
  /** This device already holds a passkey for the account. */
  previouslyRegistered: string
  /** Passkeys do not work at this address. */
  invalidDomain: string
}

/**
 * What went wrong with a passkey, in Spanish: the server's message for its refusals, a short
 * explanation for what the browser or the device refused.
 */
export function passkeyErrorText(err: unknown, fallback: string, words: PasskeyErrorWords): string {
  if (isPasskeyCancelled(err)) return words.cancelled
  if (err instanceof WebAuthnError) {
    switch (err.code) {
      case 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED':
        return words.previouslyRegistered
      case 'ERROR_INVALID_DOMAIN':
      case 'ERROR_INVALID_RP_ID':
        return words.invalidDomain
      case 'ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT':
      case 'ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT':
      case 'ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG':
        return 'Este dispositivo no puede guardar llaves de acceso. Prueba con tu teléfono o tu computadora.'
    }
    return fallback
  }
  return serverMessage(err, fallback)
}
