import { LegalDocument } from '@/features/legal/components/legal-document'
import { PrivacyNotice } from '@/features/legal/components/privacy-notice'
import { usePageTitle } from '@/lib/page-title'

/** /privacidad: the integral privacy notice, drawn from GET /api/legal. */
export function PrivacyRoute() {
  usePageTitle('Aviso de privacidad')
  return <LegalDocument title="Aviso de privacidad integral">{(info) => <PrivacyNotice info={info} />}</LegalDocument>
}
