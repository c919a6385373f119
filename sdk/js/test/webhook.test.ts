import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { constructEvent, SIGNATURE_HEADER, verifyWebhook, WebhookSignatureError } from '../src/node.js'
import type { AccessRevokedEvent, ClaimName, DocumentClaimName, SessionEvent, SharedClaims, WebhookEvent } from '../src/node.js'

// Signatures are made here the way the server makes them (partner.go, SignPartnerWebhook):
// t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>.

const SECRET = 'whsec_0123456789abcdef0123456789abcdef0123456789abcdef'
const OLD_SECRET = 'whsec_ffffffffffffffffffffffffffffffffffffffffffffffff'
const NOW = new Date('2026-03-01T12:00:00Z')
const T = Math.floor(NOW.getTime() / 1000)
// The server's verification_session.completed notification, flat (postgres/partner_sessions.go).
const BODY = JSON.stringify({
  event: 'verification_session.completed',
  id: 'vs_0123456789abcdef01234567',
  reference: 'cliente-42 · Peña',
  status: 'completed',
  livemode: false,
  requiredLevel: 3,
  createdAt: '2026-11-25T20:00:00Z',
  endedAt: '2026-11-25T20:05:00Z',
  claims: { name: 'Lucía Pérez', validUntil: '2027-11-25T20:05:00Z' },
  proof: 'eyJ.eyJ.sig',
})

function sign(secret: string, t: number, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex')
}

const header = (t = T, secret = SECRET, body = BODY) => `t=${t},v1=${sign(secret, t, body)}`

describe('verifyWebhook', () => {
  it('accepts a body signed with the secret, as a string or as the raw bytes', () => {
    expect(SIGNATURE_HEADER).toBe('X-PerfilSeguro-Signature')
    expect(() => verifyWebhook(SECRET, header(), BODY, { now: NOW })).not.toThrow()
    expect(() => verifyWebhook(SECRET, header(), Buffer.from(BODY, 'utf8'), { now: NOW })).not.toThrow()
    expect(() => verifyWebhook(SECRET, ` t=${T} , v1=${sign(SECRET, T, BODY).toUpperCase()} `, BODY, { now: NOW })).not.toThrow()
  })

  it('rejects a tampered body', () => {
    const tampered = BODY.replace('"completed"', '"declined"')
    expect(tampered).not.toBe(BODY)
    expect(() => verifyWebhook(SECRET, header(), tampered, { now: NOW })).toThrow(WebhookSignatureError)
    expect(() => verifyWebhook(SECRET, header(), `${BODY} `, { now: NOW })).toThrow(/no coincide/)
  })

  it('rejects a signature made with another secret', () => {
    expect(() => verifyWebhook(SECRET, header(T, OLD_SECRET), BODY, { now: NOW })).toThrow(/no coincide/)
    expect(() => verifyWebhook(OLD_SECRET, header(), BODY, { now: NOW })).toThrow(/no coincide/)
  })

  it('rejects a timestamp outside the tolerance, 300 s by default, and a signature moved to another timestamp', () => {
    expect(() => verifyWebhook(SECRET, header(T - 300), BODY, { now: NOW })).not.toThrow()
    expect(() => verifyWebhook(SECRET, header(T - 301), BODY, { now: NOW })).toThrow(/tolerancia/)
    expect(() => verifyWebhook(SECRET, header(T + 301), BODY, { now: NOW })).toThrow(/tolerancia/)
    expect(() => verifyWebhook(SECRET, header(T - 3600), BODY, { now: NOW, toleranceSeconds: 7200 })).not.toThrow()
    expect(() => verifyWebhook(SECRET, header(T - 61), BODY, { now: NOW, toleranceSeconds: 60 })).toThrow(/tolerancia/)
    // A replayed notification with a fresh t but the old signature.
    const replayed = `t=${T},v1=${sign(SECRET, T - 3600, BODY)}`
    expect(() => verifyWebhook(SECRET, replayed, BODY, { now: NOW })).toThrow(/no coincide/)
  })

  it('accepts any of several v1 signatures (secret rotation) and rejects when none matches', () => {
    const both = `t=${T},v1=${sign(OLD_SECRET, T, BODY)},v1=${sign(SECRET, T, BODY)}`
    expect(() => verifyWebhook(SECRET, both, BODY, { now: NOW })).not.toThrow()
    expect(() => verifyWebhook(OLD_SECRET, both, BODY, { now: NOW })).not.toThrow()
    expect(() => verifyWebhook('whsec_otro', both, BODY, { now: NOW })).toThrow(/no coincide/)
    // Unknown schemes are skipped, and a header repeated by the proxy is read as one.
    expect(() => verifyWebhook(SECRET, [`t=${T},v0=abc`, `v1=${sign(SECRET, T, BODY)}`], BODY, { now: NOW })).not.toThrow()
  })

  it('rejects a missing or malformed header', () => {
    const v1 = sign(SECRET, T, BODY)
    const cases: Array<[string | undefined, RegExp]> = [
      [undefined, /falta el encabezado/],
      ['', /falta el encabezado/],
      [v1, /falta t/],
      [`v1=${v1}`, /falta t/],
      [`t=${T}`, /falta v1/],
      [`t=${T},v1=`, /falta v1/],
      [`t=${T},v1=${v1.slice(0, 62)}`, /falta v1/],
      [`t=${T},v1=${'zz'.repeat(32)}`, /falta v1/],
      [`t=abc,v1=${v1}`, /t no es válido/],
      [`t=${T}.5,v1=${v1}`, /t no es válido/],
      [`t=${T},t=${T},v1=${v1}`, /t no es válido/],
    ]
    for (const [value, message] of cases) {
      expect(() => verifyWebhook(SECRET, value, BODY, { now: NOW }), String(value)).toThrow(message)
    }
  })

  it('refuses a body that was already parsed, and an empty secret', () => {
    const parsed = JSON.parse(BODY) as unknown as string
    expect(() => verifyWebhook(SECRET, header(), parsed, { now: NOW })).toThrow(/sin procesar/)
    expect(() => verifyWebhook('', header(), BODY, { now: NOW })).toThrow(/secreto/)
  })

  it('uses the real clock when no now is given', () => {
    const t = Math.floor(Date.now() / 1000)
    expect(() => verifyWebhook(SECRET, header(t), BODY)).not.toThrow()
    expect(() => verifyWebhook(SECRET, header(T - 86400 * 365), BODY)).toThrow(/tolerancia/)
  })
})

describe('constructEvent', () => {
  it('returns the parsed event once the signature checks out', () => {
    const event = constructEvent<SessionEvent>(SECRET, header(), Buffer.from(BODY), { now: NOW })
    expect(event).toEqual(JSON.parse(BODY))
    expect(event.event).toBe('verification_session.completed')
    expect(event.claims).toEqual({ name: 'Lucía Pérez', validUntil: '2027-11-25T20:05:00Z' })
  })

  it('carries the claims of the ID like the read, naming those the profile cannot give (issue 52 item 6)', () => {
    const body = JSON.stringify({
      ...JSON.parse(BODY),
      claims: { givenName: 'Lucía', familyName: 'Pérez Gil', birthdate: '1990-05-17', ageOver18: true, nationality: 'MEX' },
      unavailableClaims: ['curp'],
    })
    const event = constructEvent<SessionEvent>(SECRET, header(T, SECRET, body), body, { now: NOW })
    const claims: SharedClaims = event.claims ?? {}
    expect(claims.birthdate).toBe('1990-05-17')
    expect(claims.ageOver18).toBe(true)
    expect(claims.curp).toBeUndefined()
    const missing: DocumentClaimName[] = event.unavailableClaims ?? []
    expect(missing).toEqual(['curp'])
    const asked: ClaimName[] = ['givenName', 'curp']
    expect(asked).toHaveLength(2)
  })

  it('reads the status-only completion and profile.access_revoked of a withdrawal', () => {
    const resent = JSON.stringify({ ...JSON.parse(BODY), claims: undefined, proof: undefined, shared: null, sharedReason: 'withdrawn' })
    const session = constructEvent<SessionEvent>(SECRET, header(T, SECRET, resent), resent, { now: NOW })
    expect(session.shared).toBeNull()
    expect(session.sharedReason).toBe('withdrawn')
    expect(session.claims).toBeUndefined()
    const revokedBody = JSON.stringify({
      event: 'profile.access_revoked',
      livemode: false,
      revokedAt: '2026-11-26T08:00:00Z',
      sessions: [{ id: 'vs_0123456789abcdef01234567', reference: 'cliente-42 · Peña' }],
    })
    const event = constructEvent<WebhookEvent>(SECRET, header(T, SECRET, revokedBody), revokedBody, { now: NOW })
    if (event.event !== 'profile.access_revoked') throw new Error(event.event)
    const revoked = event as AccessRevokedEvent
    expect(revoked.sessions[0]?.reference).toBe('cliente-42 · Peña')
    expect(revoked.profileId).toBeUndefined()
  })

  it('throws instead of parsing a body whose signature fails, or that is not JSON', () => {
    expect(() => constructEvent(SECRET, header(T, OLD_SECRET), BODY, { now: NOW })).toThrow(WebhookSignatureError)
    const notJson = 'no es json'
    expect(() => constructEvent(SECRET, header(T, SECRET, notJson), notJson, { now: NOW })).toThrow(/JSON/)
  })
})
