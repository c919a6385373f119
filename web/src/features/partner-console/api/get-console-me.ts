import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect } from 'react'
import { ApiError, apiRequest } from '@/lib/api-client'
import type { ConsoleMe } from '../types'

// CONSOLE_MARK is in localStorage while this browser holds a console session (set on sign-in and
// enrolment, gone on sign-out or a 401). Without it /socios shows the sign-in at once, without
// asking the server (whose 401 the browser logs as an error), so the build can prerender it
// (vite.config.ts reads the same key).
const CONSOLE_MARK = 'ps_console'

/** Records whether this browser holds a console session. */
export function markConsoleSession(signedIn: boolean): void {
  try {
    if (signedIn) window.localStorage.setItem(CONSOLE_MARK, '1')
    else window.localStorage.removeItem(CONSOLE_MARK)
  } catch {
    // Without localStorage the console asks the server every time.
  }
}

/** True when this browser may hold a console session (or cannot tell). */
export function consoleSessionMarked(): boolean {
  try {
    return window.localStorage.getItem(CONSOLE_MARK) !== null
  } catch {
    return true
  }
}

/** GET /api/socios/me: who is signed in to the console, or null when nobody is (401, or never signed in here). */
export async function getConsoleMe(): Promise<ConsoleMe | null> {
  if (!consoleSessionMarked()) return null
  try {
    return await apiRequest<ConsoleMe>('GET', '/api/socios/me')
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      markConsoleSession(false)
      return null
    }
    throw err
  }
}

/** Query options owning the console session's key; every console query key starts with its first part. */
export const consoleMeQueryOptions = queryOptions({ queryKey: ['partner-console', 'me'], queryFn: getConsoleMe })

/** The console session (null: show the sign-in, at once when this browser holds none). */
export function useConsoleMe() {
  return useQuery({ ...consoleMeQueryOptions, initialData: () => (consoleSessionMarked() ? undefined : null) })
}

/** True for an answer that says the console session is over. */
export function isSignedOut(err: unknown): boolean {
  return err instanceof ApiError && err.status === 401
}

/**
 * Returns a function that, given a failed call, sends the console back to its sign-in when the
 * session is over (and says whether it did); other errors are the caller's to show.
 */
export function useConsoleSignedOut() {
  const client = useQueryClient()
  return useCallback(
    (err: unknown): boolean => {
      if (!isSignedOut(err)) return false
      markConsoleSession(false)
      client.setQueryData(consoleMeQueryOptions.queryKey, null)
      return true
    },
    [client],
  )
}

/** Sends the console back to its sign-in when a query's error says the session is over. */
export function useSignedOutOn(err: unknown) {
  const signedOut = useConsoleSignedOut()
  useEffect(() => {
    if (err) signedOut(err)
  }, [err, signedOut])
}
