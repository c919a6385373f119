import { useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { Building2, CircleAlert, KeyRound } from 'lucide-react'
import { browserSupportsWebAuthn } from '@simplewebauthn/browser'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardDescription } from '@/components/ui/card'
import { signInPartnerWithPasskey } from '../api/console-passkey'
import { passkeyError } from './passkey-error'

/** /socios signed out: the platform's people enter with their passkey; there are no passwords. */
export function PartnerSignInScreen() {
  const client = useQueryClient()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const supported = browserSupportsWebAuthn()

  const signIn = async () => {
    setError(null)
    setBusy(true)
    try {
      await signInPartnerWithPasskey()
      await client.invalidateQueries({ queryKey: ['partner-console'] })
    } catch (err) {
      setError(passkeyError(err, 'No pudimos verificar tu llave de acceso. Intenta de nuevo.'))
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="flex min-h-[70vh] items-start justify-center bg-gradient-to-b from-primary/5 to-base-100 px-4 py-12 sm:items-center">
      <Card className="w-full max-w-md shadow-xl">
        <CardBody className="gap-6">
          <div className="text-center">
            <div className="mx-auto flex size-12 items-center justify-center rounded-2xl bg-primary/10 text-primary">
              <Building2 className="size-7" aria-hidden />
            </div>
            <h1 className="mt-3 text-2xl font-bold">Consola de socios</h1>
            <CardDescription className="mt-1">
              Administra las llaves, el webhook y el equipo de tu plataforma. Entras con tu llave de acceso: no hay contraseñas.
            </CardDescription>
          </div>
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
        </CardBody>
      </Card>
    </div>
  )
}
