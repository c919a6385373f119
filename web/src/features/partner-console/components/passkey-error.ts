import { WebAuthnError } from '@simplewebauthn/browser'
import { serverMessage } from '@/lib/api-client'

/** True when the browser's passkey window was closed or the request was replaced by another. */
function isCancelled(err: unknown): boolean {
  if (err instanceof WebAuthnError) return err.code === 'ERROR_CEREMONY_ABORTED' || err.name === 'NotAllowedError' || err.name === 'AbortError'
  return err instanceof Error && (err.name === 'NotAllowedError' || err.name === 'AbortError')
}

/** What went wrong with a console passkey, in Spanish: the server's refusals, or what the browser refused. */
export function passkeyError(err: unknown, fallback: string): string {
  if (isCancelled(err)) return 'Cancelaste la llave de acceso. Puedes intentarlo de nuevo.'
  if (err instanceof WebAuthnError) {
    switch (err.code) {
      case 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED':
        return 'Este dispositivo ya tiene una llave de acceso para tu cuenta. Entra con ella desde /socios.'
      case 'ERROR_INVALID_DOMAIN':
      case 'ERROR_INVALID_RP_ID':
        return 'Las llaves de acceso no funcionan en esta dirección.'
      case 'ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT':
      case 'ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT':
      case 'ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG':
        return 'Este dispositivo no puede guardar llaves de acceso. Prueba con tu teléfono o tu computadora.'
    }
    return fallback
  }
  return serverMessage(err, fallback)
}
