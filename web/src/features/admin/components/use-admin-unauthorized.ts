import { useCallback, useEffect } from 'react'
import { useNavigate } from 'react-router-dom'
import { ApiError } from '@/lib/api-client'
import { clearAdminFlags } from '../admin-session'

/**
 * Returns a handler for failed admin calls: a 401 means the server's admin
 * session is gone (expired, revoked, never started), so the flags are cleared
 * and the browser goes to /admin-login. Returns true when it handled the error.
 */
export function useAdminUnauthorized(): (err: unknown) => boolean {
  const navigate = useNavigate()
  return useCallback(
    (err: unknown) => {
      if (!(err instanceof ApiError) || err.status !== 401) return false
      clearAdminFlags()
      navigate('/admin-login', { replace: true })
      return true
    },
    [navigate],
  )
}

/** useAdminUnauthorized, also applied to a query's error as soon as it fails; returns the handler for the mutations. */
export function useAdminUnauthorizedOn(error: unknown): (err: unknown) => boolean {
  const onUnauthorized = useAdminUnauthorized()
  useEffect(() => {
    if (error) onUnauthorized(error)
  }, [error, onUnauthorized])
  return onUnauthorized
}
