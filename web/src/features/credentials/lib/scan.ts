import jsQR from 'jsqr'

/** presentationFrom reads a credential from what was pasted, scanned or uploaded: the
 *  credential itself, or a verifier link that carries it after #vp=. */
export function presentationFrom(text: string): string {
  const t = text.trim()
  const i = t.indexOf('#vp=')
  return i >= 0 ? decodeURIComponent(t.slice(i + 4)).trim() : t
}

/** decodeQR finds a QR code in an image's pixels; null when there is none. */
export function decodeQR(image: ImageData): string | null {
  return jsQR(image.data, image.width, image.height)?.data ?? null
}

/** qrFromImageFile decodes the QR code in an uploaded picture. */
export async function qrFromImageFile(file: Blob): Promise<string | null> {
  const bitmap = await createImageBitmap(file)
  const canvas = document.createElement('canvas')
  canvas.width = bitmap.width
  canvas.height = bitmap.height
  const ctx = canvas.getContext('2d')
  if (!ctx) return null
  ctx.drawImage(bitmap, 0, 0)
  return decodeQR(ctx.getImageData(0, 0, canvas.width, canvas.height))
}

/** scanWithCamera reads frames from the camera until a QR code appears or stop is called. */
export async function scanWithCamera(video: HTMLVideoElement, signal: AbortSignal): Promise<string | null> {
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } })
  try {
    video.srcObject = stream
    await video.play()
    const canvas = document.createElement('canvas')
    const ctx = canvas.getContext('2d', { willReadFrequently: true })
    while (!signal.aborted && ctx) {
      await new Promise((r) => setTimeout(r, 200))
      if (!video.videoWidth) continue
      canvas.width = video.videoWidth
      canvas.height = video.videoHeight
      ctx.drawImage(video, 0, 0)
      const found = decodeQR(ctx.getImageData(0, 0, canvas.width, canvas.height))
      if (found) return found
    }
    return null
  } finally {
    for (const track of stream.getTracks()) track.stop()
    video.srcObject = null
  }
}
