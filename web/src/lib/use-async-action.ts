import { useState } from 'react'

/**
 * Runs a screen's async actions (one at a time): busy while one runs, and error holds the message
 * of the last failure ('' when there is none). run clears the error, awaits the action and, when it
 * throws, keeps failure(err) as the message.
 */
export function useAsyncAction() {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState('')
  const run = async (action: () => Promise<unknown>, failure: (err: unknown) => string) => {
    setBusy(true)
    setError('')
    try {
      await action()
    } catch (err) {
      setError(failure(err))
    } finally {
      setBusy(false)
    }
  }
  return { busy, error, setError, run }
}
