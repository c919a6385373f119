// Browser storage keys of SPEC §3. They are UI state only: the server
// session cookie is the truth (DECISIONS.md).

/** The localStorage keys the app reads and writes. */
export const storageKeys = {
  userId: 'userId',
  userData: 'userData',
  pendingUserId: 'pendingUserId',
  loginEmail: 'loginEmail',
  loginPhone: 'loginPhone',
  registerTempId: 'registerTempId',
  adminAuthenticated: 'adminAuthenticated',
  adminLoginTime: 'adminLoginTime',
  theme: 'theme',
} as const

/** One of the storage keys of SPEC §3. */
export type StorageKey = (typeof storageKeys)[keyof typeof storageKeys]

/** The window event fired after a successful sign-in (SPEC §3). */
export const USER_LOGGED_IN_EVENT = 'userLoggedIn'

/** Reads a key; null when absent or when storage is unavailable. */
export function readStorage(key: StorageKey): string | null {
  try {
    return window.localStorage.getItem(key)
  } catch {
    return null
  }
}

/** Writes a key; ignores storage that is unavailable (private mode). */
export function writeStorage(key: StorageKey, value: string): void {
  try {
    window.localStorage.setItem(key, value)
  } catch {
    // Storage can be disabled; the UI then simply forgets.
  }
}

/** Removes the given keys. */
export function removeStorage(...keys: StorageKey[]): void {
  for (const key of keys) {
    try {
      window.localStorage.removeItem(key)
    } catch {
      // See writeStorage.
    }
  }
}

/** Announces a sign-in to the header and any other listener. */
export function announceLogin(): void {
  window.dispatchEvent(new Event(USER_LOGGED_IN_EVENT))
}
