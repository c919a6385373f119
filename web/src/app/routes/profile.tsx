import { useCallback } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useSearchParams } from 'react-router-dom'
import { userQueryOptions } from '@/api/get-user'
import { AmlDeclarationSection } from '@/features/aml-declaration/components/declaration-section'
import { CredentialCard } from '@/features/credentials/components/credential-card'
import { PasskeysCard } from '@/features/passkeys/components/passkeys-card'
import { paymentStatusQueryOptions, type PaymentStatus } from '@/features/payments/api/get-payment-status'
import { checkoutReturn, PlanCard } from '@/features/payments/components/plan-card'
import { BiometricConsentGate } from '@/features/privacy/components/biometric-consent-gate'
import { MyDataCard } from '@/features/privacy/components/my-data-card'
import { NoticeConsentCard } from '@/features/privacy/components/notice-consent-card'
import { ProfileScreen } from '@/features/profile/components/profile-screen'
import { usePageTitle } from '@/lib/page-title'

/** The hint under the biometric buttons while the plan is unpaid. */
export const UNPAID_PLAN_HINT = 'Primero elige y paga tu plan.'

/**
 * Why the biometric check cannot start, from the payment status: only a status that says so
 * blocks it; payments off or a failed status leave it to the server, which enforces it anyway.
 */
function biometricBlockedReason(status: PaymentStatus | undefined): string | undefined {
  // A revocation is not a matter of paying: the profile says why itself.
  if (status?.state === 'revoked') return undefined
  return status?.paymentsEnabled && !status.mayStartBiometric ? UNPAID_PLAN_HINT : undefined
}

/**
 * /profile: the profile, with the credential card, the plan card and the person's privacy
 * (a new notice to accept, the express biometric consent before the check, Mis datos) and the
 * person's passkeys composed in.
 */
export function ProfileRoute() {
  usePageTitle('Mi Perfil')
  const [params] = useSearchParams()
  const queryClient = useQueryClient()
  const payment = useQuery(paymentStatusQueryOptions)
  // A finished biometric check turns a paid plan into the active one.
  const refreshPayment = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: paymentStatusQueryOptions.queryKey }),
    [queryClient],
  )
  // A corrected name or contact: the user and everything under its key (status, requests), and
  // the plan (a name change annuls the validation).
  const refreshUser = (userId: string) => {
    void queryClient.invalidateQueries({ queryKey: userQueryOptions(userId).queryKey })
    refreshPayment()
  }
  return (
    <ProfileScreen
      credential={(profileId, userId, { revoked }) => <CredentialCard profileId={profileId} userId={userId} revoked={revoked} />}
      plan={<PlanCard returned={checkoutReturn(params)} />}
      biometricBlockedReason={biometricBlockedReason(payment.data)}
      onBiometricFinished={refreshPayment}
      notice={(userId) => <NoticeConsentCard userId={userId} />}
      biometricGate={(userId, start, { asCard }) => (
        <BiometricConsentGate userId={userId} asCard={asCard}>
          {start}
        </BiometricConsentGate>
      )}
      myData={(user) => <MyDataCard user={user} onUserChanged={() => refreshUser(String(user.id))} />}
      signInMethods={(userId) => <PasskeysCard userId={userId} />}
      amlDeclaration={(userId) => <AmlDeclarationSection userId={userId} />}
    />
  )
}
