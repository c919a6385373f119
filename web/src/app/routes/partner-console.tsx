import { PartnerConsoleScreen } from '@/features/partner-console/components/partner-console-screen'
import { usePageTitle } from '@/lib/page-title'

/** /socios: the partner console (sign-in with a passkey, then the console). */
export function PartnerConsoleRoute() {
  usePageTitle('Consola de socios')
  return <PartnerConsoleScreen />
}
