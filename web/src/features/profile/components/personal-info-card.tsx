import type { ReactNode } from 'react'
import { CircleCheck, Clock, ScanFace, ShieldAlert, ShieldX } from 'lucide-react'
import type { ProfileUser } from '@/api/get-user'
import { Badge, type BadgeVariant } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardTitle } from '@/components/ui/card'
import { NameFromDocumentNote } from './identity-outcome-card'
import { REVOKED_BLOCKED_REASON, verificationBadgeText, vigenciaLabel, type VerificationState } from './verification-state'

const badgeVariant: Record<VerificationState, BadgeVariant> = {
  complete: 'success',
  in_progress: 'warning',
  pending: 'secondary',
  revoked: 'destructive',
}

const badgeIcon = { complete: CircleCheck, in_progress: Clock, pending: ShieldAlert, revoked: ShieldX }

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-1 gap-1 py-2.5 sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm text-base-content/70">{label}</dt>
      <dd className="text-sm font-medium break-words sm:col-span-2">{children}</dd>
    </div>
  )
}

/**
 * Personal information with the verification badge and the 'Completar Verificación' button. While
 * the validation is revoked the badge and the level say so and the button stays disabled with the
 * reason, without the consent in front of it (there is nothing to consent to yet).
 */
export function PersonalInfoCard({
  user,
  state,
  starting,
  polling,
  blockedReason,
  onStartVerification,
  gate = (start) => start,
  nameFromDocument = false,
}: {
  user: ProfileUser
  /** The name came from the person's ID (issue 52): a line under it says so. */
  nameFromDocument?: boolean
  state: VerificationState
  starting: boolean
  polling: boolean
  /** Why the check cannot start yet: the button is disabled and says so. */
  blockedReason?: string
  onStartVerification: () => void
  /** Stands in front of the start button (e.g. a consent to give first); shows it by default. */
  gate?: (start: ReactNode) => ReactNode
}) {
  const Icon = badgeIcon[state]
  const revoked = state === 'revoked'
  const reason = revoked ? REVOKED_BLOCKED_REASON : blockedReason
  const profileId = user.profileId ?? user.id_validado
  return (
    <Card>
      <CardBody>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <CardTitle className="text-lg">Información personal</CardTitle>
          <Badge variant={badgeVariant[state]} data-testid="verification-badge">
            <Icon className="size-3.5" aria-hidden />
            {verificationBadgeText[state]}
          </Badge>
        </div>
        <dl className="divide-y divide-base-300">
          <Row label="Nombre">
            {user.nombre || 'N/A'}
            {nameFromDocument && <NameFromDocumentNote />}
          </Row>
          <Row label="Correo electrónico">{user.email || 'N/A'}</Row>
          <Row label="Teléfono">{user.phoneNumber || 'N/A'}</Row>
          <Row label="ID de perfil">
            <span className="font-mono">{profileId || 'Pendiente'}</span>
          </Row>
          <Row label="Origen">
            {user.origen || 'Otro'}
            {user.origen === 'invitación' && user.inviterName && (
              <span className="block text-xs font-normal text-base-content/70">por {user.inviterName}</span>
            )}
          </Row>
          <Row label="Vigencia">{vigenciaLabel(user.vigencia)}</Row>
          <Row label="Fecha de validación">
            {user.fecha_validacion ? new Date(user.fecha_validacion).toLocaleDateString('es-MX') : 'Pendiente'}
          </Row>
          <Row label="Nivel de verificación">
            {revoked ? 'Revocado' : `${user.verificationLevel ?? 0} de 3`}
          </Row>
        </dl>
        {state !== 'complete' && (
          <div className="mt-2 space-y-1.5">
            {(revoked ? (start: ReactNode) => start : gate)(
              <>
                <Button
                  className="w-full sm:w-auto"
                  onClick={onStartVerification}
                  disabled={starting || polling || Boolean(reason)}
                  aria-describedby={reason ? 'start-verification-blocked' : undefined}
                >
                  {starting || polling ? <span className="loading loading-spinner loading-sm" /> : <ScanFace className="size-5" aria-hidden />}
                  Completar Verificación
                </Button>
                {reason && (
                  <p id="start-verification-blocked" className="text-sm text-base-content/70">
                    {reason}
                  </p>
                )}
              </>,
            )}
          </div>
        )}
      </CardBody>
    </Card>
  )
}
