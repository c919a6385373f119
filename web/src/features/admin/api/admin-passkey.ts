import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser'
import { apiRequest, errorBody } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'

type Options = Schema<'PasskeyOptionsJSON'>
type Session = Schema<'AdminSessionResponse'>

/** Signs in to the panel with the administrator's passkey (POST /api/admin/passkey/options, then /verify). */
export async function signInAdminWithPasskey(): Promise<Session> {
  const options = await apiRequest<Options>('POST', '/api/admin/passkey/options')
  const credential = await startAuthentication({ optionsJSON: options.publicKey as unknown as PublicKeyCredentialRequestOptionsJSON })
  return apiRequest<Session>('POST', '/api/admin/passkey/verify', credential)
}

/** GET /api/admin/enrol: whom an enrolment link is for (410 when used or expired). */
export function getEnrolment(token: string): Promise<Schema<'AdminEnrolInfo'>> {
  return apiRequest('GET', `/api/admin/enrol?token=${encodeURIComponent(token)}`)
}

/** Registers the administrator's passkey with their enrolment link and opens their session. */
export async function enrolAdminPasskey(token: string): Promise<Session> {
  const options = await apiRequest<Options>('POST', '/api/admin/enrol/options', { token })
  const credential = await startRegistration({ optionsJSON: options.publicKey as unknown as PublicKeyCredentialCreationOptionsJSON })
  return apiRequest<Session>('POST', '/api/admin/enrol/verify', { token, credential })
}

/** Confirms with the administrator's passkey: destructive actions are allowed for 5 minutes. */
export async function confirmWithPasskey(): Promise<void> {
  const options = await apiRequest<Options>('POST', '/api/admin/reauth/options')
  const credential = await startAuthentication({ optionsJSON: options.publicKey as unknown as PublicKeyCredentialRequestOptionsJSON })
  await apiRequest('POST', '/api/admin/reauth', credential)
}

/** Whether the server asked for a fresh passkey confirmation (403 with errors.reauth). */
export function needsFreshPasskey(err: unknown): boolean {
  const errors = errorBody(err)?.errors as Record<string, unknown> | undefined
  return Boolean(errors && 'reauth' in errors)
}

/** Runs action; when the server wants a fresh confirmation, asks for the passkey once and runs it again. */
export async function withFreshPasskey<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action()
  } catch (err) {
    if (!needsFreshPasskey(err)) throw err
    await confirmWithPasskey()
    return action()
  }
}
