import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'

// Local types until the server's schema is regenerated into lib/api-schema.d.ts.

/** What a consent is for: the notice and the biometric check are needed; the others are secondary. */
export type ConsentPurpose = 'privacy_notice' | 'biometric' | 'partner_notifications' | 'reminders'

/** One consent decision, or the state of a purpose that has none yet. */
export type Consent = {
  purpose: ConsentPurpose
  granted: boolean
  /** The notice version it was given for; null when never recorded. */
  noticeVersion: string | null
  /** When it was recorded; null for a secondary purpose held by default. */
  recordedAt: string | null
  /** Whether it was recorded for today's notice version. */
  current: boolean
  /** Whether the person may object to it without losing the service. */
  secondary: boolean
}

/** GET /api/users/{id}/consents: the notice version in force, the state of each purpose and the decisions made. */
export type ConsentsResponse = {
  noticeVersion: string
  /** The state of each of the four purposes. */
  consents: Consent[]
  history: Consent[]
}

/** Reads a person's consents. */
export function getConsents(userId: string): Promise<ConsentsResponse> {
  return apiRequest<ConsentsResponse>('GET', `/api/users/${encodeURIComponent(userId)}/consents`)
}

/** Query options owning a person's consents key; recording a consent invalidates it. */
export function consentsQueryOptions(userId: string) {
  return queryOptions({ queryKey: ['/api/users', userId, 'consents'], queryFn: () => getConsents(userId) })
}

/** A person's consents. */
export function useConsents(userId: string) {
  return useQuery(consentsQueryOptions(userId))
}

/** The state of one purpose, if the server listed it. */
export function consentFor(data: ConsentsResponse | undefined, purpose: ConsentPurpose): Consent | undefined {
  return data?.consents.find((c) => c.purpose === purpose)
}

/** Whether a purpose is granted for the notice version in force. */
export function grantedNow(consent: Consent | undefined): boolean {
  return Boolean(consent?.granted && consent.current)
}
