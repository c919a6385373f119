import type { ReactNode } from 'react'
import { consentFor, grantedNow, useConsents } from '../api/get-consents'
import { BiometricConsentCard } from './biometric-consent-card'

/** What stands above the start button while the notice in force is not accepted. */
export const NOTICE_FIRST_HINT = 'Para iniciar tu verificación biométrica, primero acepta el aviso de privacidad.'

/** What a second start button says while the consent card is shown elsewhere on the page. */
export const CONSENT_FIRST_HINT = 'Para iniciar tu verificación biométrica, primero da tu consentimiento para datos biométricos.'

/**
 * Stands in front of a button that starts the biometric check (children). The button stays where
 * the spec puts it ('Completar Verificación'), but disabled until the notice in force is accepted
 * and the express biometric consent is recorded for it; above it, the consent card (asCard) or a
 * one-line hint says what to do first. While the consents load it shows nothing; if they cannot
 * be read the button is enabled, and the server's refusal (409) explains itself.
 */
export function BiometricConsentGate({ userId, asCard = true, children }: { userId: string; asCard?: boolean; children: ReactNode }) {
  const consents = useConsents(userId)
  if (consents.isError) return children
  if (consents.isPending) return null
  if (!grantedNow(consentFor(consents.data, 'privacy_notice'))) {
    return (
      <div className="space-y-2">
        <Hint>{NOTICE_FIRST_HINT}</Hint>
        <Blocked>{children}</Blocked>
      </div>
    )
  }
  if (grantedNow(consentFor(consents.data, 'biometric'))) return children
  return (
    <div className="space-y-3">
      {asCard ? <BiometricConsentCard userId={userId} /> : <Hint>{CONSENT_FIRST_HINT}</Hint>}
      <Blocked>{children}</Blocked>
    </div>
  )
}

/** A disabled fieldset disables every button inside it without changing the buttons themselves. */
function Blocked({ children }: { children: ReactNode }) {
  return (
    <fieldset disabled className="contents" data-testid="biometric-blocked">
      {children}
    </fieldset>
  )
}

function Hint({ children }: { children: ReactNode }) {
  return <p className="text-sm text-base-content/70">{children}</p>
}
