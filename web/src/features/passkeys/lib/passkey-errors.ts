import { passkeyErrorText } from '@/lib/passkey-errors'

/** Said when the person closes the browser's passkey window. */
export const CANCELLED_MESSAGE = 'Cancelaste la llave de acceso. Puedes intentarlo de nuevo o entrar con tu código.'

/** What went wrong with a person's passkey, in Spanish; where passkeys fail, the code is the way in. */
export function passkeyErrorMessage(err: unknown, fallback: string): string {
  return passkeyErrorText(err, fallback, {
    cancelled: CANCELLED_MESSAGE,
    previouslyRegistered: 'Este dispositivo ya tiene una llave de acceso para tu cuenta.',
    invalidDomain: 'Las llaves de acceso no funcionan en esta dirección. Entra con tu código.',
  })
}
