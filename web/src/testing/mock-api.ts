import { vi } from 'vitest'
import { legalInfoFixture } from './legal-info'

// A fetch stand-in keyed by 'METHOD /path' that mirrors the Go routes the
// screens call. Unmatched calls answer 404 so a forgotten mock fails loudly.

/** What a mocked route answers. */
export type MockReply = { status?: number; json?: unknown; text?: string }

/** A mocked route: a fixed reply or a function of the parsed JSON body and URL. */
export type MockHandler = MockReply | ((body: unknown, url: URL) => MockReply | Promise<MockReply>)

/** One recorded call. */
export type RecordedCall = { method: string; path: string; url: URL; body: unknown; init: RequestInit | undefined }

const statusText: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
}

/** The consents of a person who accepted everything asked of them (the notice in force and the biometric check). */
export function grantedConsents(noticeVersion = '2026-11-28') {
  const consent = (purpose: string, secondary: boolean) => ({
    purpose,
    granted: true,
    noticeVersion: secondary ? null : noticeVersion,
    recordedAt: secondary ? null : '2026-11-24T18:00:00Z',
    current: !secondary,
    secondary,
  })
  const consents = [
    consent('privacy_notice', false),
    consent('biometric', false),
    consent('partner_notifications', true),
    consent('reminders', true),
  ]
  return { noticeVersion, consents, history: consents.filter((c) => c.recordedAt) }
}

/**
 * What the server answers, by default, to the reads every Mi Perfil makes besides the profile
 * itself (the person's privacy, their passkeys): everything consented, nothing requested, nobody
 * looked, no passkey; and the notice's facts. A test that cares mocks the route itself; its handler wins.
 */
const DEFAULT_ROUTES: [RegExp, MockReply][] = [
  [/^GET \/api\/users\/[^/]+\/consents$/, { json: grantedConsents() }],
  [/^GET \/api\/users\/[^/]+\/data-exports$/, { json: [] }],
  [/^GET \/api\/users\/[^/]+\/arco-requests$/, { json: [] }],
  [/^GET \/api\/users\/[^/]+\/consultations$/, { json: { items: [], nextCursor: null } }],
  [/^GET \/api\/users\/[^/]+\/passkeys$/, { json: [] }],
  [/^GET \/api\/users\/[^/]+\/partner-access$/, { json: { grants: [] } }],
  // The simplified privacy notice on the screens that collect data (registration, invitations, a partner's verification).
  [/^GET \/api\/legal$/, { json: legalInfoFixture }],
]

/**
 * Installs the mock as global fetch; returns the recorded calls. Keys may end in '*' to match a
 * prefix. Unmatched calls fall back to DEFAULT_ROUTES, then answer 404.
 */
export function mockApi(handlers: Record<string, MockHandler>) {
  const calls: RecordedCall[] = []
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost')
    const method = (init?.method ?? 'GET').toUpperCase()
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined
    calls.push({ method, path: url.pathname, url, body, init })
    const key = `${method} ${url.pathname}`
    const handler =
      handlers[key] ??
      Object.entries(handlers).find(([pattern]) => pattern.endsWith('*') && key.startsWith(pattern.slice(0, -1)))?.[1]
    const fallback = DEFAULT_ROUTES.find(([pattern]) => pattern.test(key))?.[1] ?? { status: 404, text: '' }
    const reply: MockReply = !handler ? fallback : typeof handler === 'function' ? await handler(body, url) : handler
    const status = reply.status ?? 200
    const text = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? '')
    return new Response(status === 204 ? null : text, { status, statusText: statusText[status] ?? '' })
  })
  vi.stubGlobal('fetch', fetchMock)
  return { calls, fetchMock }
}

/** Requests the layout makes on every screen: GET /api/plans says whether to show prices. */
const LAYOUT_PATHS = new Set(['/api/plans'])

/** The calls the screen itself made, leaving out the layout's own. */
export function screenCalls(calls: RecordedCall[]): RecordedCall[] {
  return calls.filter((c) => !LAYOUT_PATHS.has(c.path))
}

/** A route refusing with the server's usual error body: the status and the message the screen shows. */
export function refusal(status: number, message: string): MockReply {
  return { status, json: { message } }
}
