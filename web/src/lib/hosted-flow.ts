// The hosted verification flow this tab holds (features/hosted): kept in sessionStorage, so the
// sign-in and registration screens can send the person back to /conectar when they finish.

/**
 * What this tab remembers of an open flow. openerConfirmed: the page that opened it was shown to be
 * the platform's registered origin (else the flow warns before sharing).
 */
export type StoredFlow = { token: string; mode: 'popup' | 'redirect'; openerConfirmed?: boolean }

const FLOW_KEY = 'ps_hosted_flow'

/** The open flow of this tab, or null. */
export function readFlow(): StoredFlow | null {
  try {
    const raw = window.sessionStorage.getItem(FLOW_KEY)
    return raw ? (JSON.parse(raw) as StoredFlow) : null
  } catch {
    return null
  }
}

/** Remembers the open flow for this tab. */
export function writeFlow(flow: StoredFlow): void {
  try {
    window.sessionStorage.setItem(FLOW_KEY, JSON.stringify(flow))
  } catch {
    // Without sessionStorage the flow lasts only while this page stays open.
  }
}

/** Forgets the flow (it ended). */
export function clearFlow(): void {
  try {
    window.sessionStorage.removeItem(FLOW_KEY)
  } catch {
    // nothing to forget
  }
}


/**
 * The header that tells sign-in and registration which platform's verification this tab is in:
 * a test verification signs in and registers the platform's test people (the server decides from
 * the flow, never from this tab's word). Empty outside a flow.
 */
export function flowHeaders(): Record<string, string> {
  const flow = readFlow()
  return flow ? { 'X-Flow-Token': flow.token } : {}
}
