import { useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate, useSearchParams } from 'react-router-dom'
import { KeyRound } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardDescription } from '@/components/ui/card'
import { serverMessage } from '@/lib/api-client'
import { enrolPartnerPasskey, getPartnerEnrolment } from '../api/console-passkey'
import { ROLE_HINT, ROLE_LABEL } from '../labels'
import { passkeyError } from './passkey-error'

/** /socios/registro?token=…: a platform's new team member registers their passkey and enters the console. */
export function PartnerEnrolScreen() {
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const navigate = useNavigate()
  const client = useQueryClient()
  const info = useQuery({
    queryKey: ['partner-console', 'enrol', token],
    queryFn: () => getPartnerEnrolment(token),
    enabled: token !== '',
  })
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const enrol = async () => {
    setBusy(true)
    setError(null)
    try {
      await enrolPartnerPasskey(token)
      await client.invalidateQueries({ queryKey: ['partner-console'] })
      navigate('/socios', { replace: true })
    } catch (err) {
      setError(passkeyError(err, 'No se pudo registrar tu llave de acceso. Intenta de nuevo.'))
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
            <CardDescription className="mt-1">Con ella entrarás a la consola de socios de Perfil Seguro. No necesitas contraseña.</CardDescription>
          </div>
          {!token || info.isError ? (
            <>
              <Alert variant="destructive">
                {token ? serverMessage(info.error, 'Este enlace ya no sirve.') : 'Falta el enlace de registro. Ábrelo tal como lo recibiste.'}
              </Alert>
              <Link to="/socios" className="link link-primary text-center text-sm">
                Ir a la consola de socios
              </Link>
            </>
          ) : info.isPending ? (
            <span className="loading loading-spinner loading-sm mx-auto" role="status" aria-label="Cargando" />
          ) : (
            <>
              <div className="rounded-box bg-base-200 p-4 text-sm">
                <p>
                  Hola, <strong>{info.data.name}</strong> ({info.data.email}).
                </p>
                <p className="mt-1">
                  Te invitaron a <strong>{info.data.partnerName}</strong> como {ROLE_LABEL[info.data.role]}: {ROLE_HINT[info.data.role]}
                </p>
              </div>
              {error && <Alert variant="destructive">{error}</Alert>}
              <Button onClick={enrol} disabled={busy}>
                {busy && <span className="loading loading-spinner loading-sm" />}
                Crear llave de acceso
              </Button>
              <p className="text-center text-xs text-base-content/60">El enlace funciona una sola vez.</p>
            </>
          )}
        </CardBody>
      </Card>
    </div>
  )
}
