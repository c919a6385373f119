import { AcceptInvitationScreen } from '@/features/invitations/components/accept-invitation-screen'
import { SimplifiedNotice } from '@/features/legal/components/simplified-notice'
import { usePageTitle } from '@/lib/page-title'

/** /accept-invitation?code= or ?token= */
export function AcceptInvitationRoute() {
  usePageTitle('Aceptar invitación')
  return <AcceptInvitationScreen notice={<SimplifiedNotice headingLevel={3} />} />
}
