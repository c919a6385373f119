import { useQuery } from '@tanstack/react-query'
import { useNavigate, useSearchParams } from 'react-router-dom'
import { PasskeyEnrolScreen } from '@/components/passkey-enrol/passkey-enrol-screen'
import { serverMessage } from '@/lib/api-client'
import { useAsyncAction } from '@/lib/use-async-action'
import { markAdminSignedIn } from '../admin-session'
import { enrolAdminPasskey, getEnrolment } from '../api/admin-passkey'
import { ROLE_LABEL } from '../roles'

/** /admin-enrol?token=…: the new administrator registers their passkey and enters the panel. */
export function AdminEnrolScreen() {
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const navigate = useNavigate()
  const info = useQuery({ queryKey: ['admin', 'enrol', token], queryFn: () => getEnrolment(token), retry: false, enabled: token !== '' })
  const { busy, error, run } = useAsyncAction()

  const enrol = () =>
    run(
      async () => {
        await enrolAdminPasskey(token)
        markAdminSignedIn()
        navigate('/admin')
      },
      (err) => serverMessage(err, 'No se pudo registrar tu llave de acceso. Intenta de nuevo.'),
    )

  return (
    <PasskeyEnrolScreen
      description="Con ella entrarás al panel de administración. No necesitas contraseña."
      token={token}
      info={info}
      missingLink="Falta el enlace de registro. Pide uno a un administrador."
      error={error}
      busy={busy}
      onEnrol={enrol}
    >
      {(admin) => (
        <p className="text-center">
          Hola, <strong>{admin.name}</strong> ({admin.email}). Tu rol: {ROLE_LABEL[admin.role]}.
        </p>
      )}
    </PasskeyEnrolScreen>
  )
}
