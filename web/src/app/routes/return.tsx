import { ReturnScreen } from '@/features/verification/components/return-screen'
import { usePageTitle } from '@/lib/page-title'

/** /return */
export function ReturnRoute() {
  usePageTitle('Regresando de la verificación')
  return <ReturnScreen />
}
