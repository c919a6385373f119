import { VerificationCompleteScreen } from '@/features/verification/components/verification-complete-screen'
import { usePageTitle } from '@/lib/page-title'

/** /verification-complete */
export function VerificationCompleteRoute() {
  usePageTitle('Verificación completada')
  return <VerificationCompleteScreen />
}
