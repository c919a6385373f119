import { useParams } from 'react-router-dom'
import { PublicVerifyScreen } from '@/features/public-verify/components/public-verify-screen'
import { usePageTitle } from '@/lib/page-title'

/** /verify/:profileId */
export function VerifyProfileRoute() {
  usePageTitle('Verificación de perfil')
  const { profileId = '' } = useParams()
  return <PublicVerifyScreen profileId={profileId} />
}
