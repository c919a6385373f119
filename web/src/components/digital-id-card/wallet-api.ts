import { errorBody, serverMessage, throwIfNotOk } from '@/lib/api-client'
import { PRODUCT_NAME } from '@/lib/config'
import { saveBlob } from '@/lib/save-file'

// Wallet pass calls of SPEC §7 with the messages of SPEC §8.

/** What a wallet button tells the person afterwards. */
export type WalletOutcome =
  | { kind: 'done' }
  | { kind: 'error'; message: string }
  /** The popup was blocked: show this URL to copy. */
  | { kind: 'copy-url'; url: string }

/** Message when the card has no user id. */
export const MISSING_USER_ID = 'Error: ID de usuario no disponible'

/** The pass file name: product prefix plus the name without spaces. */
export function applePassFileName(name: string): string {
  return `${PRODUCT_NAME.replace(/\s+/g, '')}${name.replace(/\s+/g, '')}.pkpass`
}

/** True on iOS Safari, where a .pkpass URL opens the Wallet sheet directly. */
export function isIosSafari(userAgent: string = navigator.userAgent): boolean {
  const ios = /iPad|iPhone|iPod/.test(userAgent)
  const otherBrowser = /CriOS|FxiOS|EdgiOS|OPiOS/.test(userAgent)
  return ios && /Safari/.test(userAgent) && !otherBrowser
}

/** GET /api/wallet/apple/{userId}: opens the pass on iOS Safari, else downloads it. */
export async function addToAppleWallet(userId: string | undefined, name: string): Promise<WalletOutcome> {
  if (!userId) return { kind: 'error', message: MISSING_USER_ID }
  const url = `/api/wallet/apple/${encodeURIComponent(userId)}`
  if (isIosSafari()) {
    window.location.href = url
    return { kind: 'done' }
  }
  let res: Response
  try {
    res = await fetch(url, { credentials: 'include' })
  } catch {
    return { kind: 'error', message: 'Error de conexión al generar pase para Apple Wallet' }
  }
  try {
    await throwIfNotOk(res)
  } catch (err) {
    const body = errorBody(err)
    const detail = body ? serverMessage(err, 'Error desconocido') : 'Error desconocido'
    return { kind: 'error', message: `Error al generar pase para Apple Wallet: ${detail}` }
  }
  // 202 'still being built' (or any other non-pass answer) carries a JSON error, not a pass.
  if (!(res.headers.get('Content-Type') ?? '').includes('application/vnd.apple.pkpass')) {
    let detail = 'Error desconocido'
    try {
      const data = (await res.json()) as { error?: string; message?: string }
      detail = data.error || data.message || detail
    } catch {
      // Not JSON: keep the default.
    }
    return { kind: 'error', message: `Error al generar pase para Apple Wallet: ${detail}` }
  }
  saveBlob(await res.blob(), applePassFileName(name))
  return { kind: 'done' }
}

type GoogleWalletResponse = { success?: boolean; addToWalletUrl?: string; message?: string }

/** GET /api/wallet/google/{userId}: opens the save link in a new tab, or hands it back to copy. */
export async function addToGoogleWallet(userId: string | undefined): Promise<WalletOutcome> {
  if (!userId) return { kind: 'error', message: MISSING_USER_ID }
  let res: Response
  let data: GoogleWalletResponse | null = null
  try {
    res = await fetch(`/api/wallet/google/${encodeURIComponent(userId)}`, { credentials: 'include' })
  } catch {
    return { kind: 'error', message: 'Error de conexión al generar pase para Google Wallet' }
  }
  try {
    data = (await res.json()) as GoogleWalletResponse
  } catch {
    data = null
  }
  if (!res.ok || !data?.success || !data.addToWalletUrl) {
    return { kind: 'error', message: `Error al generar pase para Google Wallet: ${data?.message || 'Error desconocido'}` }
  }
  try {
    const popup = window.open(data.addToWalletUrl, '_blank')
    if (!popup) return { kind: 'copy-url', url: data.addToWalletUrl }
    popup.opener = null
    return { kind: 'done' }
  } catch {
    return { kind: 'error', message: 'Error al abrir Google Pay...' }
  }
}
