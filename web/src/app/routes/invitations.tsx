import { InvitationsScreen } from '@/features/invitations/components/invitations-screen'
import { usePageTitle } from '@/lib/page-title'

/** /invitations */
export function InvitationsRoute() {
  usePageTitle('Invitaciones')
  return <InvitationsScreen />
}
