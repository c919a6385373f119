import { saveBlob } from '@/lib/save-file'

// 'Descargar mi QR' (SPEC §9): the QR PNG is saved as '{validated ID}.png'.

/** The file name of a downloaded QR. */
export function qrFileName(profileId: string): string {
  return `${profileId}.png`
}

/** Fetches the QR image and saves it as '{profileId}.png'; throws when the image cannot be read. */
export async function downloadQr(qrUrl: string, profileId: string): Promise<void> {
  const res = await fetch(qrUrl, { credentials: 'include' })
  if (!res.ok) throw new Error(`${res.status}: ${res.statusText}`)
  saveBlob(await res.blob(), qrFileName(profileId))
}
