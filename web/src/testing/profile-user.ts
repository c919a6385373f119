// Mi Perfil's person as GET /api/users/7 answers it: the one fixture of the profile route tests.
import type { MockHandler, MockReply } from './mock-api'

/** The signed-in person of the profile tests (id 7, level 1, not validated). */
export const baseProfileUser = {
  id: 7,
  nombre: 'Ana López',
  email: 'ana@example.com',
  phoneNumber: '+525512345678',
  origen: 'Otro',
  vigencia: 1,
  id_validado: 'PS-1111-2222-33',
  profileId: 'PS-1111-2222-33',
  fecha_validacion: null as string | null,
  qr_url: null as string | null,
  verificationLevel: 1,
  biometricVerified: false,
}

/** The person with the fields a test needs changed (or added). */
export function profileUser<T extends object>(changes: T): typeof baseProfileUser & T {
  return { ...baseProfileUser, ...changes }
}

/** Signs person 7 in, as the browser remembers it. */
export function signInProfile() {
  localStorage.setItem('userId', '7')
}

/**
 * Mi Perfil's own reads for signed-in person 7: the record, its verification status (the record's
 * level and biometric check, with status's changes) and a live session.
 */
export function profileRoutes(
  user: { verificationLevel?: unknown; biometricVerified?: unknown },
  status: Record<string, unknown> = {},
): Record<string, MockHandler> {
  return {
    'GET /api/users/7': { json: user },
    'GET /api/users/7/verification-status': {
      json: { verificationLevel: user.verificationLevel, biometricVerified: user.biometricVerified, ...status },
    },
    'GET /api/auth/status': { json: { authenticated: true } },
  }
}

/** GET /api/payments/status with payments off: nothing to pay, the biometric check may start. */
export const paymentsOff: MockReply = {
  json: { paymentsEnabled: false, state: 'not_required', freeEligible: false, mayStartBiometric: true, message: '', plans: [] },
}
