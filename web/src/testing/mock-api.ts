import { vi } from 'vitest'

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
  404: 'Not Found',
  409: 'Conflict',
  500: 'Internal Server Error',
}

/** Installs the mock as global fetch; returns the recorded calls. Keys may end in '*' to match a prefix. */
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
    const reply: MockReply = !handler ? { status: 404, text: '' } : typeof handler === 'function' ? await handler(body, url) : handler
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
