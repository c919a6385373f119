import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser'
import { apiRequest } from '@/lib/api-client'
import type { EnrolInfo } from '../types'
import { markConsoleSession } from './get-console-me'

// Partner users sign in with passkeys only: an enrolment link registers the first one, later a
// discoverable passkey opens the console (the ps_partner cookie).

type Options = { publicKey: Record<string, unknown>; mediation?: string }

/** The answer of a sign-in, an enrolment or a sign-out. */
export type ConsoleSessionResponse = { success: boolean; authenticated: boolean; expiresAt?: string; message: string }

/** Signs in with the partner user's passkey (POST /api/socios/passkey/options, then /verify). */
export async function signInPartnerWithPasskey(): Promise<ConsoleSessionResponse> {
  const options = await apiRequest<Options>('POST', '/api/socios/passkey/options')
  const credential = await startAuthentication({ optionsJSON: options.publicKey as unknown as PublicKeyCredentialRequestOptionsJSON })
  const res = await apiRequest<ConsoleSessionResponse>('POST', '/api/socios/passkey/verify', credential)
  markConsoleSession(true)
  return res
}

/** GET /api/socios/enrol: whom an enrolment link is for (410 when used or expired). */
export function getPartnerEnrolment(token: string): Promise<EnrolInfo> {
  return apiRequest<EnrolInfo>('GET', `/api/socios/enrol?token=${encodeURIComponent(token)}`)
}

/** Registers the partner user's passkey with their enrolment link and opens their session. */
export async function enrolPartnerPasskey(token: string): Promise<ConsoleSessionResponse> {
  const options = await apiRequest<Options>('POST', '/api/socios/enrol/options', { token })
  const credential = await startRegistration({ optionsJSON: options.publicKey as unknown as PublicKeyCredentialCreationOptionsJSON })
  const res = await apiRequest<ConsoleSessionResponse>('POST', '/api/socios/enrol/verify', { token, credential })
  markConsoleSession(true)
  return res
}

/** POST /api/socios/logout: ends the console session. */
export async function signOutPartner(): Promise<ConsoleSessionResponse> {
  const res = await apiRequest<ConsoleSessionResponse>('POST', '/api/socios/logout')
  markConsoleSession(false)
  return res
}
