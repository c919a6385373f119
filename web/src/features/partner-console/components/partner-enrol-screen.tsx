import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate, useSearchParams } from 'react-router-dom'
import { PasskeyEnrolScreen } from '@/components/passkey-enrol/passkey-enrol-screen'
import { useAsyncAction } from '@/lib/use-async-action'
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
  const { busy, error, run } = useAsyncAction()

  const enrol = () =>
    run(
      async () => {
        await enrolPartnerPasskey(token)
        await client.invalidateQueries({ queryKey: ['partner-console'] })
        navigate('/socios', { replace: true })
      },
      (err) => passkeyError(err, 'No se pudo registrar tu llave de acceso. Intenta de nuevo.'),
    )

  return (
    <PasskeyEnrolScreen
      description="Con ella entrarás a la consola de socios de Perfil Seguro. No necesitas contraseña."
      token={token}
      info={info}
      missingLink="Falta el enlace de registro. Ábrelo tal como lo recibiste."
      afterRefusal={
        <Link to="/socios" className="link link-primary text-center text-sm">
          Ir a la consola de socios
        </Link>
      }
      error={error}
      busy={busy}
      onEnrol={enrol}
      footnote={<p className="text-center text-xs text-base-content/60">El enlace funciona una sola vez.</p>}
    >
      {(member) => (
        <div className="rounded-box bg-base-200 p-4 text-sm">
          <p>
            Hola, <strong>{member.name}</strong> ({member.email}).
          </p>
          <p className="mt-1">
            Te invitaron a <strong>{member.partnerName}</strong> como {ROLE_LABEL[member.role]}: {ROLE_HINT[member.role]}
          </p>
        </div>
      )}
    </PasskeyEnrolScreen>
  )
}
