import type { ProfileUser } from '@/api/get-user'

/** The profile's verification state (SPEC §4), and revoked (DECISIONS.md, Revocation). */
export type VerificationState = 'complete' | 'in_progress' | 'pending' | 'revoked'

/**
 * revoked: an administrator revoked the validation and no one lifted it, whatever the level says
 * (issue 38); complete: biometric and level >= 3; in_progress: phone verified (level >= 1); else pending.
 */
export function verificationState(
  user: Pick<ProfileUser, 'biometricVerified' | 'verificationLevel'> & { revokedAt?: string | null },
): VerificationState {
  if (user.revokedAt) return 'revoked'
  const level = user.verificationLevel ?? 0
  if (user.biometricVerified && level >= 3) return 'complete'
  if (level >= 1) return 'in_progress'
  return 'pending'
}

/** The badge text of each state. */
export const verificationBadgeText: Record<VerificationState, string> = {
  complete: 'Verificación completa',
  in_progress: 'Verificación en proceso',
  pending: 'Pendiente de verificación',
  revoked: 'Verificación revocada',
}

/** Why no check can start while revoked: the server answers 409 the same (only an administrador lifts it). */
export const REVOKED_BLOCKED_REASON =
  'Tu validación fue revocada: no puedes iniciar una nueva verificación hasta que soporte revise tu caso.'

/** Pass expiry: validation date plus vigencia years (DECISIONS.md), or null without a date. */
export function passExpiry(user: Pick<ProfileUser, 'fecha_validacion' | 'vigencia'>): Date | null {
  if (!user.fecha_validacion) return null
  const date = new Date(user.fecha_validacion)
  if (Number.isNaN(date.getTime())) return null
  date.setFullYear(date.getFullYear() + (user.vigencia ?? 1))
  return date
}

/** '1 año' or 'N años'. */
export function vigenciaLabel(years: number | null | undefined): string {
  const n = years ?? 1
  return n === 1 ? '1 año' : `${n} años`
}
