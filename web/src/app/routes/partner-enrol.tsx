import { PartnerEnrolScreen } from '@/features/partner-console/components/partner-enrol-screen'
import { usePageTitle } from '@/lib/page-title'

/** /socios/registro?token=…: a partner user registers their passkey with their enrolment link. */
export function PartnerEnrolRoute() {
  usePageTitle('Registro en la consola de socios')
  return <PartnerEnrolScreen />
}
