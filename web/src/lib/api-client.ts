import type { QueryFunction } from '@tanstack/react-query'

// The one HTTP client of the app, implementing SPEC §7: every call carries
// cookies, JSON content type only with a body, non-2xx becomes
// Error('{status}: {text or status text}'), success is read as JSON.

/** A non-2xx answer; message is '{status}: {body text or status text}'. */
export class ApiError extends Error {
  /** The HTTP status code. */
  readonly status: number
  /** The raw response text (may be empty). */
  readonly body: string

  constructor(status: number, statusText: string, body: string) {
    super(`${status}: ${body || statusText}`)
    this.name = 'ApiError'
    this.status = status
    this.body = body
  }
}

/** HTTP methods the app uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** Throws an ApiError for a non-2xx response, consuming its body. */
export async function throwIfNotOk(res: Response): Promise<void> {
  if (!res.ok) {
    const text = await res.text()
    throw new ApiError(res.status, res.statusText, text)
  }
}

/** Sends a request with cookies; JSON body and content type only when data is given. */
export async function apiFetch(method: HttpMethod, url: string, data?: unknown, headers?: Record<string, string>): Promise<Response> {
  const hasBody = data !== undefined
  const res = await fetch(url, {
    method,
    headers: { ...(hasBody ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: hasBody ? JSON.stringify(data) : undefined,
    credentials: 'include',
  })
  await throwIfNotOk(res)
  return res
}

async function readJson<T>(res: Response): Promise<T> {
  // A 204 or an empty body has nothing to parse.
  const text = await res.text()
  return (text ? JSON.parse(text) : null) as T
}

/** Sends a request and reads the successful answer as JSON. */
export async function apiRequest<T>(method: HttpMethod, url: string, data?: unknown, headers?: Record<string, string>): Promise<T> {
  return readJson<T>(await apiFetch(method, url, data, headers))
}

/** How a query treats 401: as an empty result or as an error. */
export type UnauthorizedBehavior = 'returnNull' | 'throw'

/** A react-query function that GETs the URL made of the string parts of the query key. */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey }) => {
    const url = queryKey.filter((part) => typeof part === 'string').join('/')
    const res = await fetch(url, { credentials: 'include' })
    if (on401 === 'returnNull' && res.status === 401) return null
    await throwIfNotOk(res)
    return readJson<T>(res)
  }
}

/** The parsed JSON body of an ApiError, or null when it has none. */
export function errorBody(err: unknown): Record<string, unknown> | null {
  if (!(err instanceof ApiError) || !err.body) return null
  try {
    const parsed: unknown = JSON.parse(err.body)
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/**
 * The user-facing text of a failed call: the server's `message` (or `error`)
 * from its JSON body, else the fallback. Server bodies look like
 * {"message": "...", "errors": {field: msg}}.
 */
export function serverMessage(err: unknown, fallback: string): string {
  const body = errorBody(err)
  let message = fallback
  for (const key of ['message', 'error'] as const) {
    const value = body?.[key]
    if (typeof value === 'string' && value.trim()) {
      message = value
      break
    }
  }
  // A server-side failure names its request, so support can find it from a screenshot.
  const reference = body?.requestId
  if (err instanceof ApiError && err.status >= 500 && typeof reference === 'string' && reference) {
    return `${message} Referencia: ${reference}`
  }
  return message
}

/** True when the call never reached the server (fetch's TypeError). */
export function isNetworkError(err: unknown): boolean {
  return err instanceof TypeError
}
