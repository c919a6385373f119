// Hand-written types for the drop-in (web/public/widget/v1.js, served at /widget/v1.js) and for
// the API objects a partner's server sees.
//
// The API's full types can be generated from the server's OpenAPI document with
// openapi-typescript: `npm run generate -w sdk/js -- <path or URL of the document>` writes
// src/openapi.d.ts (default document: http://localhost:8080/api/openapi.json). The types below
// are kept by hand until that file is generated and committed.

/** A verification session's status, as the API reports it. */
export type VerificationStatus = 'created' | 'in_progress' | 'completed' | 'declined' | 'expired' | 'canceled'

/** What verify() resolves with: a session status, or 'closed' when the person closed the popup first. */
export type VerificationResultStatus = VerificationStatus | 'closed'

/**
 * How the hosted flow ended in this browser. It is a hint for the page, not a proof: confirm the
 * session from your server (API with your secret key, or webhooks) before trusting it.
 */
export interface VerificationResult {
  id: string
  status: VerificationResultStatus
}

export interface PerfilSeguroOptions {
  /** Perfil Seguro's origin; by default the origin v1.js was loaded from. */
  baseUrl?: string
  /** 'redirect' opens the hosted page in the same tab instead of a popup. */
  mode?: 'redirect'
}

export interface PerfilSeguroClient {
  /**
   * Opens the hosted verification for a session's client secret (vs_…_secret_…). Call it from
   * a click handler. In the redirect variant the page navigates away and the promise never settles.
   */
  verify(clientSecret: string): Promise<VerificationResult>
}

/** window.PerfilSeguro, as defined by /widget/v1.js. */
export interface PerfilSeguroStatic {
  (publishableKey: string, options?: PerfilSeguroOptions): PerfilSeguroClient
  readonly version: string
  /** The result appended to the return URL after the redirect variant, or null. */
  resultFromUrl(href?: string): { id: string; status: VerificationStatus } | null
}

declare global {
  interface Window {
    PerfilSeguro?: PerfilSeguroStatic
  }
}

/** A verification session (Stripe Identity's VerificationSession), as the API returns it. */
export interface VerificationSession {
  /** vs_ + 24 hex */
  id: string
  status: VerificationStatus
  livemode: boolean
  /** The partner's own id for this person or case. */
  reference: string
  requiredLevel: number
  /** Completed sessions: the claims the person shared, only those the session asked for. */
  claims?: {
    name?: string
    profileId?: string
    validUntil?: string
    level?: number
  }
  /** Completed sessions: a JWS over the session and the shared claims. */
  proof?: string
  createdAt: string
  expiresAt: string
  completedAt?: string
}

/** One notification Perfil Seguro POSTs to the partner's webhook URL. */
export interface WebhookEvent<T = unknown> {
  id: string
  type: string
  created: number
  livemode: boolean
  data: T
}
