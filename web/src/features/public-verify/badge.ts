import type { BadgeVariant } from '@/components/ui/badge'
import type { PublicVerification } from './api/get-public-verification'

/** The public page badge. */
export type PublicBadge = { label: 'Revocado' | 'Expirado' | 'Verificado' | 'Email Verificado' | 'SMS Verificado' | 'No Verificado'; variant: BadgeVariant }

/**
 * DECISIONS.md: 'Revocado' when an administrator revoked the validation, before anything else.
 * SPEC §4: 'Expirado' if expired; 'Verificado' if verified and level >= 3;
 * 'Email Verificado' at level >= 2; 'SMS Verificado' at level >= 1; otherwise 'No Verificado'.
 */
export function publicBadge(
  profile: Pick<PublicVerification['profile'], 'expirado' | 'verificado' | 'nivel_verificacion'> & { revocado?: boolean },
): PublicBadge {
  if (profile.revocado) return { label: 'Revocado', variant: 'destructive' }
  if (profile.expirado) return { label: 'Expirado', variant: 'destructive' }
  if (profile.verificado && profile.nivel_verificacion >= 3) return { label: 'Verificado', variant: 'success' }
  if (profile.nivel_verificacion >= 2) return { label: 'Email Verificado', variant: 'default' }
  if (profile.nivel_verificacion >= 1) return { label: 'SMS Verificado', variant: 'secondary' }
  return { label: 'No Verificado', variant: 'outline' }
}
