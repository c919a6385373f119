// 'Descargar mi QR' (SPEC §9): the QR PNG is saved as '{validated ID}.png'.

/** The file name of a downloaded QR. */
export function qrFileName(profileId: string): string {
  return `${profileId}.png`
}

/** Fetches the QR image and saves it as '{profileId}.png'; throws when the image cannot be read. */
export async function downloadQr(qrUrl: string, profileId: string): Promise<void> {
  const res = await fetch(qrUrl, { credentials: 'include' })
  if (!res.ok) throw new Error(`${res.status}: ${res.statusText}`)
  const href = URL.createObjectURL(await res.blob())
  const link = document.createElement('a')
  link.href = href
  link.download = qrFileName(profileId)
  document.body.appendChild(link)
  link.click()
  link.remove()
  // Give the browser time to start the download before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(href), 10_000)
}
