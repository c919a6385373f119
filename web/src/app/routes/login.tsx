import { LoginScreen } from '@/features/auth/components/login-screen'
import { usePageTitle } from '@/lib/page-title'

/** /login */
export function LoginRoute() {
  usePageTitle('Iniciar Sesión')
  return <LoginScreen />
}
