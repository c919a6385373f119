import { IntegrationScreen } from '@/features/integration/components/integration-screen'
import { usePageTitle } from '@/lib/page-title'

/** /integration */
export function IntegrationRoute() {
  usePageTitle('Integración')
  return <IntegrationScreen />
}
