import { HostedFlowScreen } from '@/features/hosted/components/hosted-flow-screen'
import { SimplifiedNotice } from '@/features/legal/components/simplified-notice'
import { usePageTitle } from '@/lib/page-title'

/** /conectar: a partner's verification request (the drop-in's popup or redirect). */
export function HostedFlowRoute() {
  usePageTitle('Verificación para una plataforma')
  return <HostedFlowScreen notice={<SimplifiedNotice headingLevel={3} />} />
}
