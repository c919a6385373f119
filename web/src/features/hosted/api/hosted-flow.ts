import { apiRequest } from '@/lib/api-client'

export { clearFlow, readFlow, writeFlow, type StoredFlow } from '@/lib/hosted-flow'

// The hosted verification flow of a partner (api/hosted.go). The flow token lives in this tab's
// sessionStorage: first-party, so the flow works with third-party cookies blocked, and gone when
// the popup closes.

/** The claims a platform may ask for (perfilseguro.SessionClaims); the last six come from the person's ID. */
export type HostedClaimKey =
  | 'name'
  | 'profileId'
  | 'validUntil'
  | 'level'
  | 'givenName'
  | 'familyName'
  | 'birthdate'
  | 'ageOver18'
  | 'nationality'
  | 'curp'

/**
 * One claim a platform asks for, as the person reads it. unavailable: a claim of the ID this
 * profile cannot give (validated before IDs were read, or the ID lacks it): it is not shared.
 */
export type HostedClaim = { key: HostedClaimKey; label: string; value?: unknown; unavailable?: boolean }

/** The claims the screen shows as shared: what the person agrees to with «Compartir». */
export function sharedKeys(claims: HostedClaim[]): HostedClaimKey[] {
  return claims.filter((c) => !c.unavailable).map((c) => c.key)
}

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
  /** The platform asks for the know-your-client declaration (signed before sharing). */
  amlProfile?: boolean
  /** The person's current signed version (signed in, amlProfile). */
  amlDeclaration?: { version: number; signedAt: string; method: 'passkey' | 'codigo'; textSha256: string }
  /** The signed-in person (amlProfile, nothing blocking): the declaration's calls are theirs. */
  userId?: number
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

/**
 * POST /api/hosted/decision: share, or decline. Sharing names the claims the screen showed
 * (claims): the server shares a birth date or a CURP only when they are named, and nothing when
 * what it would share is not what the person saw.
 */
export function decide(token: string, share: boolean, claims?: HostedClaimKey[], amlDeclarationVersion?: number) {
  const body = share && claims ? { share, claims, ...(amlDeclarationVersion ? { amlDeclarationVersion } : {}) } : { share }
  return apiRequest<HostedDecision>('POST', '/api/hosted/decision', body, { 'X-Flow-Token': token })
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
