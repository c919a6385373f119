import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect } from 'react'
import { ApiError, apiRequest } from '@/lib/api-client'
import type { ConsoleMe } from '../types'

/** GET /api/socios/me: who is signed in to the console, or null when nobody is (401). */
export async function getConsoleMe(): Promise<ConsoleMe | null> {
  try {
    return await apiRequest<ConsoleMe>('GET', '/api/socios/me')
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null
    throw err
  }
}

/** Query options owning the console session's key; every console query key starts with its first part. */
export const consoleMeQueryOptions = queryOptions({ queryKey: ['partner-console', 'me'], queryFn: getConsoleMe })

/** The console session (null: show the sign-in). */
export function useConsoleMe() {
  return useQuery(consoleMeQueryOptions)
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
