import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useNavigate, useSearchParams } from 'react-router-dom'
import { KeyRound } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardDescription } from '@/components/ui/card'
import { serverMessage } from '@/lib/api-client'
import { markAdminSignedIn } from '../admin-session'
import { enrolAdminPasskey, getEnrolment } from '../api/admin-passkey'
import { ROLE_LABEL } from '../roles'

/** /admin-enrol?token=…: the new administrator registers their passkey and enters the panel. */
export function AdminEnrolScreen() {
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const navigate = useNavigate()
  const info = useQuery({ queryKey: ['admin', 'enrol', token], queryFn: () => getEnrolment(token), retry: false, enabled: token !== '' })
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const enrol = async () => {
    setBusy(true)
    setError(null)
    try {
      await enrolAdminPasskey(token)
      markAdminSignedIn()
      navigate('/admin')
    } catch (err) {
      setError(serverMessage(err, 'No se pudo registrar tu llave de acceso. Intenta de nuevo.'))
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="flex min-h-[70vh] items-start justify-center px-4 py-12 sm:items-center">
      <Card className="w-full max-w-md shadow-xl">
        <CardBody className="gap-5">
          <div className="text-center">
            <KeyRound className="mx-auto size-10 text-primary" aria-hidden />
            <h1 className="mt-3 text-2xl font-bold">Registra tu llave de acceso</h1>
            <CardDescription className="mt-1">Con ella entrarás al panel de administración. No necesitas contraseña.</CardDescription>
          </div>
          {!token || info.isError ? (
            <Alert variant="destructive">
              {token ? serverMessage(info.error, 'Este enlace ya no sirve.') : 'Falta el enlace de registro. Pide uno a un administrador.'}
            </Alert>
          ) : info.isPending ? (
            <span className="loading loading-spinner loading-sm mx-auto" role="status" aria-label="Cargando" />
          ) : (
            <>
              <p className="text-center">
                Hola, <strong>{info.data.name}</strong> ({info.data.email}). Tu rol: {ROLE_LABEL[info.data.role]}.
              </p>
              {error && <Alert variant="destructive">{error}</Alert>}
              <Button onClick={enrol} disabled={busy}>
                {busy && <span className="loading loading-spinner loading-sm" />}
                Crear llave de acceso
              </Button>
            </>
          )}
        </CardBody>
      </Card>
    </div>
  )
}
