import { LoginScreen } from '@/features/auth/components/login-screen'
import { PasskeySignIn } from '@/features/passkeys/components/passkey-sign-in'
import { usePageTitle } from '@/lib/page-title'

/** /login: the code sign-in, with the passkey sign-in beside it. */
export function LoginRoute() {
  usePageTitle('Iniciar Sesión')
  return <LoginScreen alternative={<PasskeySignIn />} />
}
