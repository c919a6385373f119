import { VerifyCodeScreen } from '@/features/auth/components/verify-code-screen'
import { usePageTitle } from '@/lib/page-title'

/** /verify-code */
export function VerifyCodeRoute() {
  usePageTitle('Verificar Código')
  return <VerifyCodeScreen />
}
