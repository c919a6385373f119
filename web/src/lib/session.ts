import { useCallback, useEffect, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { useNavigate } from 'react-router-dom'
import { readStorage, removeStorage, storageKeys, USER_LOGGED_IN_EVENT } from './storage'

// The signed-in user as the UI knows it: the userId key in localStorage
// (SPEC §4 'User session'). The server session cookie stays the truth; when
// the server says 401 the UI clears this key.

const SESSION_CLEARED_EVENT = 'perfilseguro:session-cleared'

/** Removes the stored user (userId and userData) and tells listeners in this tab. */
export function clearStoredUser(): void {
  removeStorage(storageKeys.userId, storageKeys.userData)
  window.dispatchEvent(new Event(SESSION_CLEARED_EVENT))
}

/** The stored userId, kept current on sign-in, sign-out and changes in other tabs. */
export function useStoredUserId(): string | null {
  const [userId, setUserId] = useState(() => readStorage(storageKeys.userId))

  useEffect(() => {
    const sync = () => setUserId(readStorage(storageKeys.userId))
    window.addEventListener(USER_LOGGED_IN_EVENT, sync)
    window.addEventListener(SESSION_CLEARED_EVENT, sync)
    window.addEventListener('storage', sync)
    return () => {
      window.removeEventListener(USER_LOGGED_IN_EVENT, sync)
      window.removeEventListener(SESSION_CLEARED_EVENT, sync)
      window.removeEventListener('storage', sync)
    }
  }, [])

  return userId
}

/**
 * Forgets the signed-in person in this browser, as signing out does: the stored user and every
 * cached answer (someone else may sign in next), then goes to the landing page. Used after the
 * sign-out call and after the account is deleted.
 */
export function useForgetSession(): () => void {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  return useCallback(() => {
    clearStoredUser()
    queryClient.clear()
    navigate('/')
  }, [queryClient, navigate])
}
