// SD-JWT VC (RFC 9901, draft-ietf-oauth-sd-jwt-vc) and the Token Status List, checked in the
// browser with WebCrypto: the issuer's ES256 signature (by kid), every disclosure's digest, the
// expiry and the status bit. Nothing here asks the server about the person.

/** Why a credential is not accepted. */
export class CredentialError extends Error {
  constructor(
    readonly kind: 'malformed' | 'signature' | 'disclosure' | 'issuer' | 'status',
    message: string,
  ) {
    super(message)
  }
}

/** One disclosure: [salt, claim name, value] as sent. */
export type Disclosure = { encoded: string; name: string; value: unknown }

/** A compact SD-JWT taken apart (not yet verified). */
export type ParsedSdJwt = {
  jwt: string
  header: Record<string, unknown>
  payload: Record<string, unknown>
  disclosures: Disclosure[]
}

/** An issuer public key as published in its JWKS. */
export type IssuerKey = JsonWebKey & { kid?: string }

const textEncoder = new TextEncoder()

export function base64urlToBytes(s: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) throw new CredentialError('malformed', 'La credencial no tiene un formato válido.')
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4)
  const bin = atob(b64)
  const out = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
  return out
}

export function bytesToBase64url(bytes: Uint8Array): string {
  let bin = ''
  for (const b of bytes) bin += String.fromCharCode(b)
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function decodeJSON(part: string): Record<string, unknown> {
  try {
    const value = JSON.parse(new TextDecoder().decode(base64urlToBytes(part)))
    if (value && typeof value === 'object') return value as Record<string, unknown>
  } catch {
    // falls through
  }
  throw new CredentialError('malformed', 'La credencial no tiene un formato válido.')
}

/** parseSdJwt splits "<jwt>~<disclosure>~…~" and decodes every part. */
export function parseSdJwt(compact: string): ParsedSdJwt {
  const trimmed = compact.trim()
  const parts = trimmed.split('~')
  const jwt = parts[0]
  if (parts.length < 2 || jwt.split('.').length !== 3) {
    throw new CredentialError('malformed', 'Esto no parece una credencial de Perfil Seguro.')
  }
  if (parts[parts.length - 1] !== '') {
    throw new CredentialError('malformed', 'La credencial está incompleta: debe terminar en “~”.')
  }
  const [h, p] = jwt.split('.')
  const disclosures = parts.slice(1, -1).map((encoded) => {
    const arr = decodeJSON(encoded) as unknown
    if (!Array.isArray(arr) || arr.length !== 3 || typeof arr[1] !== 'string') {
      throw new CredentialError('malformed', 'Una de las partes divulgadas no tiene un formato válido.')
    }
    return { encoded, name: arr[1], value: arr[2] }
  })
  return { jwt, header: decodeJSON(h), payload: decodeJSON(p), disclosures }
}

/**
 * The disclosures nested in a claim of Perfil Seguro's credential, presented with it: the "18" of
 * age_equal_or_over (issue 52; the server's Present does the same by digest).
 */
const nestedIn: Record<string, string[]> = { age_equal_or_over: ['18'] }

/** present keeps only the disclosures of the chosen claims: what the holder decides to show. */
export function present(compact: string, keep: string[]): string {
  const { jwt, disclosures } = parseSdJwt(compact)
  const names = new Set(keep.flatMap((k) => [k, ...(nestedIn[k] ?? [])]))
  const kept = disclosures.filter((d) => names.has(d.name)).map((d) => d.encoded)
  return [jwt, ...kept, ''].join('~')
}

/** The base64url SHA-256 digest of a disclosure as it appears in the credential. */
export async function disclosureDigest(encoded: string): Promise<string> {
  const hash = await crypto.subtle.digest('SHA-256', textEncoder.encode(encoded))
  return bytesToBase64url(new Uint8Array(hash))
}

/** verifyJws checks an ES256 compact JWS with the key its header names; returns header and payload. */
export async function verifyJws(jws: string, keys: IssuerKey[], typ: string) {
  const [h, p, s] = jws.split('.')
  const header = decodeJSON(h)
  const payload = decodeJSON(p)
  if (header.alg !== 'ES256' || header.typ !== typ) {
    throw new CredentialError('malformed', 'La credencial no es del tipo que emite Perfil Seguro.')
  }
  const jwk = keys.find((k) => k.kid === header.kid)
  if (!jwk) throw new CredentialError('signature', 'La firma no corresponde a ninguna llave publicada por Perfil Seguro.')
  const key = await crypto.subtle.importKey('jwk', { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y },
    { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify'])
  const ok = await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, base64urlToBytes(s),
    textEncoder.encode(`${h}.${p}`))
  if (!ok) throw new CredentialError('signature', 'La firma no es válida: la credencial fue alterada o no la emitió Perfil Seguro.')
  return { header, payload }
}

/** A decoded Token Status List (1 bit per credential). */
export type StatusList = { issuedAt: Date; expiresAt: Date | null; bits: Uint8Array; uri: string }

/** verifyStatusList checks the status list token's signature and inflates its list (ZLIB). */
export async function verifyStatusList(token: string, keys: IssuerKey[]): Promise<StatusList> {
  const { payload } = await verifyJws(token.trim(), keys, 'statuslist+jwt')
  const list = payload.status_list as { bits?: number; lst?: string } | undefined
  if (!list || list.bits !== 1 || typeof list.lst !== 'string') {
    throw new CredentialError('status', 'La lista de revocación no tiene un formato válido.')
  }
  const compressed = base64urlToBytes(list.lst)
  const stream = new ReadableStream<Uint8Array<ArrayBuffer>>({
    start(controller) {
      controller.enqueue(compressed)
      controller.close()
    },
  }).pipeThrough(new DecompressionStream('deflate')) // 'deflate' is the ZLIB format (RFC 1950)
  const bits = new Uint8Array(await new Response(stream).arrayBuffer())
  return {
    issuedAt: new Date(Number(payload.iat) * 1000),
    expiresAt: payload.exp ? new Date(Number(payload.exp) * 1000) : null,
    bits,
    uri: String(payload.sub ?? ''),
  }
}

/** statusBit reads entry idx of a 1-bit list: byte idx/8, bit idx%8 from the least significant. */
export function statusBit(list: StatusList, idx: number): boolean {
  const byte = list.bits[Math.floor(idx / 8)]
  if (byte === undefined) throw new CredentialError('status', 'La credencial apunta fuera de la lista de revocación.')
  return ((byte >> idx % 8) & 1) === 1
}

/** The outcome shown to the verifier. */
export type Verdict = 'valida' | 'revocada' | 'expirada'

export type VerifiedCredential = {
  verdict: Verdict
  claims: Record<string, unknown> // what the holder disclosed, plus the always-visible claims
  disclosed: string[]
  expiresAt: Date
  statusUri: string
  statusIdx: number
}

/**
 * verifyCredential checks a presented credential: issuer, signature, disclosures, expiry, and the
 * status bit in statusList (fetched by the caller from the credential's own status uri).
 */
export async function verifyCredential(
  compact: string,
  opts: { issuer: string; keys: IssuerKey[]; statusList: (uri: string) => Promise<StatusList>; now?: Date },
): Promise<VerifiedCredential> {
  const parsed = parseSdJwt(compact)
  const { payload } = await verifyJws(parsed.jwt, opts.keys, 'dc+sd-jwt')
  if (payload.iss !== opts.issuer) {
    throw new CredentialError('issuer', 'La credencial no fue emitida por Perfil Seguro.')
  }
  const altered = () => new CredentialError('disclosure', 'Un dato divulgado no corresponde a la credencial: fue alterado.')
  const byDigest = new Map<string, Disclosure>()
  for (const d of parsed.disclosures) {
    const digest = await disclosureDigest(d.encoded)
    if (byDigest.has(digest)) throw altered() // a disclosure sent twice
    byDigest.set(digest, d)
  }
  const claims: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(payload)) if (k !== '_sd' && k !== '_sd_alg') claims[k] = v
  const disclosed: string[] = []
  // Every disclosure must be referenced by a digest in _sd: the payload's, or that of an object a
  // disclosure carries (age_equal_or_over's "18"), each used once.
  const fill = (target: Record<string, unknown>, sd: unknown, top: boolean) => {
    if (!Array.isArray(sd)) return
    for (const digest of sd) {
      const d = byDigest.get(digest as string)
      if (!d) continue // a decoy, or a claim the holder did not show
      byDigest.delete(digest as string)
      if (d.name in target) throw altered()
      let value = d.value
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        const { _sd: inner, ...rest } = value as Record<string, unknown>
        value = rest
        fill(rest, inner, false)
      }
      target[d.name] = value
      if (top) disclosed.push(d.name)
    }
  }
  fill(claims, payload._sd, true)
  if (byDigest.size > 0) throw altered()
  const status = (payload.status as { status_list?: { idx?: number; uri?: string } } | undefined)?.status_list
  if (!status || typeof status.idx !== 'number' || typeof status.uri !== 'string' || !status.uri.startsWith(`${opts.issuer}/`)) {
    throw new CredentialError('malformed', 'La credencial no indica dónde consultar si fue revocada.')
  }
  const expiresAt = new Date(Number(payload.exp) * 1000)
  const base = { claims, disclosed, expiresAt, statusUri: status.uri, statusIdx: status.idx }
  if (!(expiresAt.getTime() > (opts.now ?? new Date()).getTime())) return { ...base, verdict: 'expirada' }
  const list = await opts.statusList(status.uri)
  return { ...base, verdict: statusBit(list, status.idx) ? 'revocada' : 'valida' }
}
