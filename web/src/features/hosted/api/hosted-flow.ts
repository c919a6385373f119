import { apiRequest } from '@/lib/api-client'

export { clearFlow, readFlow, writeFlow, type StoredFlow } from '@/lib/hosted-flow'

// The hosted verification flow of a partner (api/hosted.go). The flow token lives in this tab's
// sessionStorage: first-party, so the flow works with third-party cookies blocked, and gone when
// the popup closes.

/** One claim a platform asks for, as the person reads it. */
export type HostedClaim = { key: 'name' | 'profileId' | 'validUntil' | 'level'; label: string; value?: unknown }

/** The session as the hosted page shows it. */
export type HostedView = {
  id: string
  status: 'created' | 'in_progress' | 'completed' | 'declined' | 'expired' | 'canceled'
  partnerName: string
  partnerOrigin: string
  requiredLevel: number
  livemode: boolean
  claims: HostedClaim[]
  returnUrl?: string
  signedIn: boolean
  level: number
  blocker: string
  /** The partner was deactivated after the flow opened: nothing can be shared (blocker says so). */
  disconnected?: boolean
  /** The signed-in account is of the other mode (live in a test session, or the reverse). */
  signOutToContinue?: boolean
}

/** The person's decision, answered. */
export type HostedDecision = { id: string; status: 'completed' | 'declined'; redirectUrl?: string }

/** POST /api/hosted/open: takes the client secret, once. */
export function openFlow(body: { clientSecret: string; publishableKey: string; openerOrigin?: string }) {
  return apiRequest<{ flowToken: string; session: HostedView; openerConfirmed: boolean }>('POST', '/api/hosted/open', body)
}

/** GET /api/hosted/session: the session this flow holds. */
export function getFlowSession(token: string) {
  return apiRequest<HostedView>('GET', '/api/hosted/session', undefined, { 'X-Flow-Token': token })
}

/** POST /api/hosted/decision: share, or decline. */
export function decide(token: string, share: boolean) {
  return apiRequest<HostedDecision>('POST', '/api/hosted/decision', { share }, { 'X-Flow-Token': token })
}

/** The statuses after which nothing can change. */
export const finalStatuses = new Set(['completed', 'declined', 'expired', 'canceled'])

/** Tells the partner page that opened the popup how the session ended: to its registered origin only, never personal data. */
export function tellOpener(view: { id: string; status: string }, partnerOrigin: string): boolean {
  const opener = window.opener as Window | null
  if (!opener || !partnerOrigin) return false
  opener.postMessage({ type: 'perfilseguro:session', id: view.id, status: view.status }, partnerOrigin)
  return true
}

/** Ends the person's session here (an account of the other mode), so they can sign in again. */
export async function signOut(): Promise<void> {
  await apiRequest<unknown>('POST', '/api/logout')
}
