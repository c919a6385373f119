import { createHmac, timingSafeEqual } from 'node:crypto'
import type { WebhookEvent } from './types.js'

/** The request header that carries a notification's signature. */
export const SIGNATURE_HEADER = 'X-PerfilSeguro-Signature'

/** How far the signature's timestamp may be from this machine's clock, by default. */
export const DEFAULT_TOLERANCE_SECONDS = 300

export interface VerifyWebhookOptions {
  /** Maximum difference, in seconds, between the signature's timestamp and now (default 300). */
  toleranceSeconds?: number
  /** The current time (tests). */
  now?: Date
}

/** Thrown when a notification's signature does not check out. */
export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'WebhookSignatureError'
  }
}

type RawBody = string | Buffer | Uint8Array

const SIGNATURE_PATTERN = /^[0-9a-f]{64}$/i

/** Reads "t=<unix seconds>,v1=<hex>[,v1=<hex>…]"; other schemes (v0, v2…) are skipped. */
function parseHeader(header: string): { timestamp: string; signatures: Buffer[] } {
  let timestamp: string | null = null
  const signatures: Buffer[] = []
  for (const part of header.split(',')) {
    const item = part.trim()
    const eq = item.indexOf('=')
    if (eq <= 0) continue
    const key = item.slice(0, eq)
    const value = item.slice(eq + 1)
    if (key === 't') {
      if (timestamp !== null || !/^\d{1,12}$/.test(value)) {
        throw new WebhookSignatureError(`${SIGNATURE_HEADER} mal formado: t no es válido`)
      }
      timestamp = value
    } else if (key === 'v1' && SIGNATURE_PATTERN.test(value)) {
      signatures.push(Buffer.from(value, 'hex'))
    }
  }
  if (timestamp === null) throw new WebhookSignatureError(`${SIGNATURE_HEADER} mal formado: falta t`)
  if (signatures.length === 0) throw new WebhookSignatureError(`${SIGNATURE_HEADER} mal formado: falta v1`)
  return { timestamp, signatures }
}

function headerText(header: string | readonly string[] | undefined | null): string {
  // Node gives an array when the header came more than once; HTTP joins such values with commas.
  const text = Array.isArray(header) ? header.join(',') : header
  if (typeof text !== 'string' || text.trim() === '') {
    throw new WebhookSignatureError(`falta el encabezado ${SIGNATURE_HEADER}`)
  }
  return text
}

function checkBody(rawBody: unknown): asserts rawBody is RawBody {
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    // Typically a body already parsed by express.json(): its bytes are gone.
    throw new TypeError('Perfil Seguro: rawBody debe ser el cuerpo recibido sin procesar (string o Buffer)')
  }
}

/**
 * Checks that a notification comes from Perfil Seguro: the X-PerfilSeguro-Signature header
 * ("t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">") must carry a v1 signature made
 * with the webhook secret (any of them, while secrets are being rotated), and t must be within
 * the tolerance of now. Throws a WebhookSignatureError otherwise.
 *
 * rawBody is the request body exactly as received, before any JSON parsing.
 */
export function verifyWebhook(
  secret: string,
  header: string | readonly string[] | undefined | null,
  rawBody: string | Buffer,
  opts: VerifyWebhookOptions = {},
): void {
  if (typeof secret !== 'string' || secret === '') {
    throw new TypeError('Perfil Seguro: falta el secreto del webhook')
  }
  checkBody(rawBody)
  const tolerance = opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS
  if (!(tolerance >= 0)) throw new RangeError('Perfil Seguro: toleranceSeconds debe ser 0 o más')

  const { timestamp, signatures } = parseHeader(headerText(header))

  const now = (opts.now ?? new Date()).getTime() / 1000
  if (Math.abs(now - Number(timestamp)) > tolerance) {
    throw new WebhookSignatureError(`${SIGNATURE_HEADER}: la marca de tiempo está fuera de tolerancia (${tolerance} s)`)
  }

  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest()
  // Every candidate is compared, in constant time, whatever the earlier ones gave.
  let matched = false
  for (const signature of signatures) {
    if (timingSafeEqual(signature, expected)) matched = true
  }
  if (!matched) throw new WebhookSignatureError(`${SIGNATURE_HEADER}: la firma no coincide`)
}

/** Verifies a notification (see verifyWebhook) and returns its parsed JSON event. */
export function constructEvent<T extends { event: string } = WebhookEvent>(
  secret: string,
  header: string | readonly string[] | undefined | null,
  rawBody: string | Buffer,
  opts: VerifyWebhookOptions = {},
): T {
  verifyWebhook(secret, header, rawBody, opts)
  const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8')
  try {
    return JSON.parse(text) as T
  } catch {
    throw new SyntaxError('Perfil Seguro: el cuerpo de la notificación no es JSON válido')
  }
}
