import { useQueryClient } from '@tanstack/react-query'
import { Building2, CircleAlert, KeyRound } from 'lucide-react'
import { browserSupportsWebAuthn } from '@simplewebauthn/browser'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { ScreenCard } from '@/components/ui/card'
import { useAsyncAction } from '@/lib/use-async-action'
import { signInPartnerWithPasskey } from '../api/console-passkey'
import { passkeyError } from './passkey-error'

/** /socios signed out: the platform's people enter with their passkey; there are no passwords. */
export function PartnerSignInScreen() {
  const client = useQueryClient()
  const { busy, error, run } = useAsyncAction()
  const supported = browserSupportsWebAuthn()

  const signIn = () =>
    run(
      async () => {
        await signInPartnerWithPasskey()
        await client.invalidateQueries({ queryKey: ['partner-console'] })
      },
      (err) => passkeyError(err, 'No pudimos verificar tu llave de acceso. Intenta de nuevo.'),
    )

  return (
    <ScreenCard
      welcome
      icon={Building2}
      title="Consola de socios"
      description="Administra las llaves, el webhook y el equipo de tu plataforma. Entras con tu llave de acceso: no hay contraseñas."
    >
      {error && (
        <Alert variant="destructive" icon={<CircleAlert className="size-5" aria-hidden />}>
          {error}
        </Alert>
      )}
      {supported ? (
        <Button className="w-full" onClick={signIn} disabled={busy}>
          {busy ? <span className="loading loading-spinner loading-sm" /> : <KeyRound className="size-4" aria-hidden />}
          Entrar con llave de acceso
        </Button>
      ) : (
        <Alert variant="warning">Este navegador no admite llaves de acceso. Abre la consola en un navegador actual de tu computadora o teléfono.</Alert>
      )}
      <p className="text-center text-sm text-base-content/70">
        ¿Aún no tienes acceso? Pide a un propietario de tu plataforma, o a Perfil Seguro, un enlace de registro.
      </p>
    </ScreenCard>
  )
}
