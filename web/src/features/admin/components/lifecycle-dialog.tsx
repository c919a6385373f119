import { useEffect, useState, type ReactNode } from 'react'
import { Button, type ButtonVariant } from '@/components/ui/button'
import { Modal } from '@/components/ui/modal'
import { serverMessage } from '@/lib/api-client'
import { cn } from '@/lib/cn'
import type { AdminUser } from '../api/get-users'
import { useLifecycle } from '../api/get-lifecycle'
import { useLiftRevocation } from '../api/lift-revocation'
import { useRevokeProfile } from '../api/revoke-profile'
import type { useValidationChange } from '../api/validation-change'

// Every kind the server records (a renewal is one too: the generated types said so).
const EVENT_LABEL = { expired: 'Expiró', revoked: 'Revocado', renewed: 'Renovado', lifted: 'Revocación levantada' } as const

function formatDateTime(value: string): string {
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? '—' : date.toLocaleString('es-MX')
}

/**
 * The validation of one user: its lifecycle history (expiry, revocation and its lift, who and
 * when); while it stands, revoking it with a reason; while revoked, lifting the revocation with a
 * reason (an administrador's decision). Open while user is set.
 */
export function LifecycleDialog({
  user,
  onClose,
  onRevoked,
  onLifted = () => {},
  onUnauthorized,
  canRevoke = true,
  canLift = false,
}: {
  user: AdminUser | null
  /** The role may revoke (the server checks it too). */
  canRevoke?: boolean
  /** The role may lift a revocation: administrador only (the server checks it too). */
  canLift?: boolean
  onClose: () => void
  onRevoked: (user: AdminUser) => void
  onLifted?: (user: AdminUser) => void
  onUnauthorized: (err: unknown) => boolean
}) {
  const history = useLifecycle(user?.id ?? null)
  const revoke = useRevokeProfile()
  const lift = useLiftRevocation()
  const [motivo, setMotivo] = useState('')
  const [error, setError] = useState('')


  useEffect(() => {
    if (history.error) onUnauthorized(history.error)
  }, [history.error, onUnauthorized])

  /** Sends the reason with change (revoke or lift): a reason is required; a failure that is not the session's shows the server's words, or fallback. */
  const sendReason = (
    change: ReturnType<typeof useValidationChange>,
    required: string,
    fallback: string,
    onSuccess: (updated: AdminUser) => void,
  ) => {
    if (!user) return
    if (!motivo.trim()) {
      setError(required)
      return
    }
    change.mutate(
      { id: user.id, motivo },
      {
        onSuccess: (updated) => onSuccess(updated),
        onError: (err) => {
          if (onUnauthorized(err)) return
          setError(serverMessage(err, fallback))
        },
      },
    )
  }

  const submit = () => sendReason(revoke, 'El motivo de la revocación es requerido', 'Error al revocar el perfil', onRevoked)

  const submitLift = () =>
    sendReason(lift, 'El motivo para levantar la revocación es requerido', 'Error al levantar la revocación', (updated) => {
      setMotivo('')
      onLifted(updated)
    })

  // What both reason forms share: the text being typed, its error, and Cerrar.
  const reason = {
    motivo,
    error,
    onMotivo: (value: string) => {
      setMotivo(value)
      setError('')
    },
    onClose,
  }

  const revoked = Boolean(user?.revokedAt)
  const liftForm = revoked && canLift
  // Only a standing validation can be revoked (after a lift there is none until a new check).
  const revokeForm = !revoked && canRevoke && Boolean(user?.fecha_validacion)
  return (
    <Modal
      open={user !== null}
      onClose={onClose}
      onOpen={() => {
        setMotivo('')
        setError('')
      }}
      labelledBy="lifecycle-title"
      backdrop
    >
      <div className="modal-box max-w-lg space-y-4">
        <h2 id="lifecycle-title" className="text-lg font-bold">
          Validación de {user?.nombre}
        </h2>
        <p className="font-mono text-sm text-base-content/70">{user?.id_validado}</p>

        <section aria-labelledby="lifecycle-history" className="space-y-2">
          <h3 id="lifecycle-history" className="font-semibold">
            Historial
          </h3>
          {history.isPending ? (
            <span className="loading loading-spinner loading-sm" role="status" aria-label="Cargando historial" />
          ) : history.data && history.data.events.length > 0 ? (
            <ul className="space-y-2" data-testid="lifecycle-events">
              {history.data.events.map((ev, i) => (
                <li key={i} className="rounded-box border border-base-300 p-3 text-sm">
                  <div className="font-medium">
                    {EVENT_LABEL[ev.tipo]} · {formatDateTime(ev.fecha)}
                  </div>
                  <div className="text-base-content/70">
                    {ev.quien === 'admin'
                      ? `Por un administrador${ev.administrador ? `: ${ev.administrador}` : ''}${ev.ip ? ` (${ev.ip})` : ''}`
                      : 'Por el sistema, al terminar la vigencia'}
                  </div>
                  {ev.motivo && <div>Motivo: {ev.motivo}</div>}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-base-content/70">Sin cambios desde la validación.</p>
          )}
        </section>

        {revoked && <p className="text-sm text-error">Esta validación está revocada.</p>}
        {liftForm && (
          <MotivoForm
            name="Levantar la revocación"
            label="Motivo para levantar la revocación"
            errorId="lift-error"
            {...reason}
            onSubmit={submitLift}
            pending={lift.isPending}
            submitLabel="Levantar revocación"
            actionsClassName="flex-wrap"
          >
            La validación revocada no vuelve: la persona podrá hacer una nueva verificación biométrica y le avisaremos por
            correo. Queda registrado en la bitácora.
          </MotivoForm>
        )}
        {revokeForm && (
          <MotivoForm
            label="Motivo de la revocación"
            errorId="revoke-error"
            {...reason}
            onSubmit={submit}
            pending={revoke.isPending}
            submitLabel="Revocar validación"
            submitVariant="destructive"
          >
            La cuenta se conserva; la página pública y los pases dirán «Revocado» y los socios recibirán el aviso.
          </MotivoForm>
        )}
        {!liftForm && !revokeForm && (
          <div className="modal-action">
            <Button type="button" variant="outline" onClick={onClose}>
              Cerrar
            </Button>
          </div>
        )}
      </div>
    </Modal>
  )
}

/** The dialog's form for a reason (revoking, or lifting a revocation): the text, its error, what follows, Cerrar and the action. */
function MotivoForm({
  name,
  label,
  errorId,
  motivo,
  error,
  onMotivo,
  onSubmit,
  onClose,
  pending,
  submitLabel,
  submitVariant,
  actionsClassName,
  children,
}: {
  /** The form's accessible name, when it has one. */
  name?: string
  label: string
  errorId: string
  motivo: string
  error: string
  onMotivo: (value: string) => void
  onSubmit: () => void
  onClose: () => void
  pending: boolean
  submitLabel: string
  submitVariant?: ButtonVariant
  actionsClassName?: string
  /** What the action does, under the reason. */
  children: ReactNode
}) {
  return (
    <form
      className="space-y-2"
      aria-label={name}
      onSubmit={(e) => {
        e.preventDefault()
        onSubmit()
      }}
    >
      <label className="floating-label block">
        <span>{label}</span>
        <textarea
          className="textarea w-full"
          placeholder={label}
          maxLength={500}
          value={motivo}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => onMotivo(e.target.value)}
        />
      </label>
      {error && (
        <p id={errorId} className="text-sm text-error">
          {error}
        </p>
      )}
      <p className="text-sm text-base-content/70">{children}</p>
      <div className={cn('modal-action', actionsClassName)}>
        <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
          Cerrar
        </Button>
        <Button type="submit" variant={submitVariant} disabled={pending} pending={pending}>
          {submitLabel}
        </Button>
      </div>
    </form>
  )
}
