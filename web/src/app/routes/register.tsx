import { RegisterScreen } from '@/features/auth/components/register-screen'
import { usePageTitle } from '@/lib/page-title'

/** /register */
export function RegisterRoute() {
  usePageTitle('Registro')
  return <RegisterScreen />
}
