import { useCallback, useEffect, useRef, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import {
  getVerificationStatus,
  isBiometricVerified,
  verificationStatusQueryOptions,
  type VerificationStatus,
} from '@/api/get-verification-status'

/** Provider decisions that end an attempt without verification: polling stops, the alerts explain. */
const FAILED_STATUSES = ['Declined', 'Expired', 'Abandoned']

/** Whether the latest approved check's ID left the person without level 3 (an open verdict other than match). */
export function identityWaits(status: VerificationStatus): boolean {
  const identity = status.identity
  return !!identity && identity.verdict !== 'match' && identity.resolution !== 'adopted' && identity.resolution !== 'approved'
}

/** Time between two biometric status checks (SPEC §9). */
export const BIOMETRIC_POLL_MS = 5000

/** Checks before giving up (SPEC §9: 60, five minutes). */
export const BIOMETRIC_MAX_POLLS = 60

/**
 * Polls the verification status after the user started the biometric flow;
 * calls onVerified at level >= 3 with biometric done, or onGaveUp after the
 * last attempt, and onFinished whenever polling ends. Errors are only logged.
 */
export function useBiometricPolling(
  userId: string | null,
  onVerified: (renewal: boolean) => void,
  onGaveUp: () => void,
  onFinished?: () => void,
) {
  const [polling, setPolling] = useState(false)
  // A renewal starts at level 3 already: it is done when the new session is Approved.
  const renewal = useRef(false)
  const queryClient = useQueryClient()
  const callbacks = useRef({ onVerified, onGaveUp, onFinished })
  callbacks.current = { onVerified, onGaveUp, onFinished }

  useEffect(() => {
    if (!polling || !userId) return
    let attempts = 0
    let done = false
    const finish = (outcome: 'verified' | 'gave-up' | 'failed') => {
      done = true
      window.clearInterval(timer)
      setPolling(false)
      if (outcome === 'verified') callbacks.current.onVerified(renewal.current)
      else if (outcome === 'gave-up') callbacks.current.onGaveUp()
      callbacks.current.onFinished?.()
    }
    const timer = window.setInterval(async () => {
      attempts += 1
      const attempt = attempts
      try {
        const status = await getVerificationStatus(userId)
        if (done) return
        // Each poll refreshes the profile's status, so its alerts (e.g. 'Documento Rechazado') follow live.
        queryClient.setQueryData(verificationStatusQueryOptions(userId).queryKey, status)
        if (
          (status.verificationLevel ?? 0) >= 3 &&
          isBiometricVerified(status) &&
          (!renewal.current || status.lastBiometricStatus === 'Approved')
        ) {
          finish('verified')
          return
        }
        // An approved check whose ID did not certify the person (issue 52: a mismatch, a review, a
        // declined ID): the polling ends, the identity card explains.
        if (status.lastBiometricStatus === 'Approved' && identityWaits(status)) {
          finish('failed')
          return
        }
        if (FAILED_STATUSES.includes(status.lastBiometricStatus ?? '')) {
          finish('failed')
          return
        }
      } catch (err) {
        console.error('biometric status polling failed', err)
      }
      if (!done && attempt >= BIOMETRIC_MAX_POLLS) finish('gave-up')
    }, BIOMETRIC_POLL_MS)
    return () => {
      done = true
      window.clearInterval(timer)
    }
  }, [polling, userId, queryClient])

  const start = useCallback((isRenewal = false) => {
    renewal.current = isRenewal
    setPolling(true)
  }, [])
  return { polling, start }
}
