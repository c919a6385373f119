import { Badge } from '@/components/ui/badge'
import { formatDateTimeMx } from '@/lib/format'
import { useUserIdentity } from '../api/identity-reviews'
import { IdentityCheckDetails, VERDICT_LABEL } from './identity-check-details'
import { useAdminUnauthorizedOn } from './use-admin-unauthorized'

const RESOLUTION: Record<'adopted' | 'approved' | 'declined', string> = {
  adopted: 'La persona adoptó el nombre de su identificación',
  approved: 'Aprobada por un administrador',
  declined: 'Rechazada por un administrador',
}

/** The admin user view's identity: the certifying document (else the latest check), its verdict and findings, and the profiles linked by the same ID. */
export function UserIdentity({ userId }: { userId: number }) {
  const identity = useUserIdentity(userId)
  useAdminUnauthorizedOn(identity.error)
  if (identity.isPending) return <p className="text-sm text-base-content/70">Cargando identificación…</p>
  if (identity.isError) return <p className="text-sm text-error">Error al cargar la identificación.</p>
  const { check, linked, nameFromDocument } = identity.data
  return (
    <section className="space-y-4" aria-label="Identificación oficial">
      <h3 className="text-lg font-semibold">Identificación oficial</h3>
      {check ? (
        <div className="space-y-3">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <Badge variant={VERDICT_LABEL[check.verdict][1]}>{VERDICT_LABEL[check.verdict][0]}</Badge>
            <span className="text-base-content/70">Verificada el {formatDateTimeMx(check.checkedAt)}</span>
            {nameFromDocument && <Badge variant="outline">Nombre tomado de la identificación</Badge>}
          </div>
          {check.resolution && (
            <p className="text-sm">
              {RESOLUTION[check.resolution]}
              {check.resolutionReason ? `: ${check.resolutionReason}` : ''}
            </p>
          )}
          <IdentityCheckDetails check={check} />
        </div>
      ) : (
        <p className="text-sm text-base-content/70">Sin verificación de identificación.</p>
      )}
      {linked.length > 0 && (
        <div className="space-y-2" data-testid="linked-profiles">
          <h4 className="font-semibold">Perfiles vinculados por la misma identificación</h4>
          <ul className="space-y-1 text-sm">
            {linked.map((l) => (
              <li key={l.verificationId}>
                <span className="font-medium">{l.nombre}</span> <span className="font-mono text-xs">{l.profileId}</span> —{' '}
                {l.relation === 'holder'
                  ? 'ya estaba validado con esta identificación cuando este perfil la presentó (rechazado)'
                  : 'presentó la identificación que valida este perfil (rechazado)'}{' '}
                ({formatDateTimeMx(l.at)})
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  )
}
