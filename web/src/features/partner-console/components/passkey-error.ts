import { passkeyErrorText } from '@/lib/passkey-errors'

/** What went wrong with a console passkey, in Spanish: the server's refusals, or what the browser refused. */
export function passkeyError(err: unknown, fallback: string): string {
  return passkeyErrorText(err, fallback, {
    cancelled: 'Cancelaste la llave de acceso. Puedes intentarlo de nuevo.',
    previouslyRegistered: 'Este dispositivo ya tiene una llave de acceso para tu cuenta. Entra con ella desde /socios.',
    invalidDomain: 'Las llaves de acceso no funcionan en esta dirección.',
  })
}
