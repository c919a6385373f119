import { apiRequest } from '@/lib/api-client'
import { toApiUserId } from '@/lib/user-id'
import type { Schema } from '@/lib/api-types'

/**
 * POST /api/start-verification answer: the provider's hosted URL, or (status 202) pending
 * with the attempt to poll at GET /api/start-verification/{sessionId}.
 */
export type StartVerificationResponse = Schema<'StartVerificationResponse'>

/** Pause between two polls of a pending start (the server also waits up to 2 s per poll). */
export const START_POLL_MS = 1000

/** Polls before giving up on a pending start (about a minute in all). */
export const START_MAX_POLLS = 20

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Asks the server for the biometric provider's hosted URL, waiting while the session is created. */
export async function startVerification(userId: string): Promise<StartVerificationResponse> {
  let res = await apiRequest<StartVerificationResponse>('POST', '/api/start-verification', { userId: toApiUserId(userId) })
  for (let attempt = 0; res.pending && !res.verificationUrl && res.sessionId && attempt < START_MAX_POLLS; attempt++) {
    await sleep(START_POLL_MS)
    res = await apiRequest<StartVerificationResponse>('GET', `/api/start-verification/${res.sessionId}`)
  }
  return res
}
