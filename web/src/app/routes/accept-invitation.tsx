import { AcceptInvitationScreen } from '@/features/invitations/components/accept-invitation-screen'
import { usePageTitle } from '@/lib/page-title'

/** /accept-invitation?code= or ?token= */
export function AcceptInvitationRoute() {
  usePageTitle('Aceptar invitación')
  return <AcceptInvitationScreen />
}
