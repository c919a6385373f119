import { readStorage, removeStorage, storageKeys, writeStorage } from '@/lib/storage'

// The browser's admin flags of SPEC §3/§4. They drive the UI guard only; the
// server's HttpOnly admin cookie is the truth (DECISIONS.md).

/** How long the admin panel stays open after signing in (SPEC §9). */
export const ADMIN_SESSION_MS = 4 * 60 * 60 * 1000

/** Stores the flag and the sign-in time. */
export function markAdminSignedIn(now: number = Date.now()): void {
  writeStorage(storageKeys.adminAuthenticated, 'true')
  writeStorage(storageKeys.adminLoginTime, String(now))
}

/** Removes both admin flags. */
export function clearAdminFlags(): void {
  removeStorage(storageKeys.adminAuthenticated, storageKeys.adminLoginTime)
}

/** Milliseconds the flags remain valid, or 0 when missing, malformed or older than 4 hours. */
export function adminSessionRemainingMs(now: number = Date.now()): number {
  if (readStorage(storageKeys.adminAuthenticated) !== 'true') return 0
  const raw = readStorage(storageKeys.adminLoginTime)
  const loginTime = raw ? Number(raw) : NaN
  if (!Number.isFinite(loginTime) || loginTime > now) return 0
  return Math.max(0, loginTime + ADMIN_SESSION_MS - now)
}
