// Types for the drop-in (web/public/widget/v1.js, served at /widget/v1.js), written by hand, and
// for the API objects a partner's server sees, taken from src/openapi.d.ts: generated with
// openapi-typescript from the partner part of the server's OpenAPI document
// (`npm run generate -w sdk/js -- sdk/go/openapi.json`; make test checks it is current).
import type { components } from './openapi.js'

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

/** A verification session (Stripe Identity's VerificationSession), as GET …/verification-sessions/{id} returns it. */
export type VerificationSession = components['schemas']['SessionView']

/** What POST /api/partner/v1/verification-sessions takes. */
export type NewSession = components['schemas']['NewSession']

/** What POST /api/partner/v1/verification-sessions answers: give only clientSecret to the page. */
export type SessionCreated = components['schemas']['SessionCreated']

/** One keyset page of sessions, newest first. */
export type SessionList = components['schemas']['SessionList']

/** A claim a session may ask for (NewSession.claims); the last six come from the person's official ID. */
export type ClaimName = NewSession['claims'][number]

/** The claims of the official ID that a profile may be unable to give (listed in `unavailableClaims`). */
export type DocumentClaimName = 'givenName' | 'familyName' | 'birthdate' | 'ageOver18' | 'nationality' | 'curp'

/**
 * The claims a person may share, as a completed session's `shared` and the webhook's `claims` carry
 * them: only those asked for. The claims of the ID come from the ID that certifies the profile; one
 * the profile cannot give (validated before IDs were read, or the ID lacks it) is absent and named
 * in `unavailableClaims`. birthdate and curp are shared only when the person agreed on the screen
 * that names them.
 */
export interface SharedClaims {
  name?: string
  profileId?: string
  validUntil?: string | null
  level?: number
  /** Given names as on the ID, in proper case. */
  givenName?: string
  /** Surnames as on the ID, in proper case. */
  familyName?: string
  /** Date of birth on the ID, YYYY-MM-DD. */
  birthdate?: string
  /** 18 or older on the day of sharing (without the birth date). */
  ageOver18?: boolean
  /** Nationality on the ID, ISO 3166-1 alpha-3. */
  nationality?: string
  /** The CURP on the ID. */
  curp?: string
}

/**
 * Why a completed session no longer carries what the person shared: 'withdrawn' (the person
 * withdrew your platform's access in Mi Perfil) or 'deleted' (the person deleted their account).
 */
export type SharedReason = 'withdrawn' | 'deleted'

/**
 * verification_session.completed, .declined and .expired: the session, flat (claims and proof when
 * completed). A retry or a resend of a completion after a withdrawal or a deletion carries
 * `shared: null` and `sharedReason` instead of claims and proof.
 */
export interface SessionEvent {
  event: 'verification_session.completed' | 'verification_session.declined' | 'verification_session.expired'
  id: string
  reference: string
  status: VerificationStatus
  livemode: boolean
  requiredLevel: number
  createdAt: string
  endedAt?: string | null
  claims?: SharedClaims
  /** The claims of the ID asked for that `claims` does not carry. */
  unavailableClaims?: DocumentClaimName[]
  proof?: string
  shared?: null
  sharedReason?: SharedReason
}

/** One of your sessions as profile.access_revoked and profile.deleted name it: its id and your own reference. */
export interface SessionRef {
  id: string
  reference: string
}

/**
 * profile.access_revoked: the person withdrew your access; the sessions they completed with you in
 * that mode (newest first) now answer their status only. profileId only if they had shared it.
 */
export interface AccessRevokedEvent {
  event: 'profile.access_revoked'
  sessions: SessionRef[]
  livemode: boolean
  revokedAt: string
  profileId?: string
}

/**
 * profile.deleted: the person deleted their account; the sessions they completed with you in that
 * mode (newest first) now answer their status only. Sent only to platforms the person was sharing
 * with; profileId only if they had shared it.
 */
export interface ProfileDeletedEvent {
  event: 'profile.deleted'
  sessions: SessionRef[]
  livemode: boolean
  deletedAt: string
  profileId?: string
}

/** One notification Perfil Seguro POSTs to the partner's webhook URL: flat JSON whose `event` names it. */
export type WebhookEvent<T extends { event: string } = SessionEvent | AccessRevokedEvent | ProfileDeletedEvent | { event: string; [field: string]: unknown }> = T
