import { useEffect, useRef, useState } from 'react'
import { Button } from '@/components/ui/button'
import { serverMessage } from '@/lib/api-client'
import type { AdminUser } from '../api/get-users'
import { useLifecycle } from '../api/get-lifecycle'
import { useLiftRevocation } from '../api/lift-revocation'
import { useRevokeProfile } from '../api/revoke-profile'

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
  const ref = useRef<HTMLDialogElement>(null)
  const history = useLifecycle(user?.id ?? null)
  const revoke = useRevokeProfile()
  const lift = useLiftRevocation()
  const [motivo, setMotivo] = useState('')
  const [error, setError] = useState('')

  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (user && !dialog.open) {
      setMotivo('')
      setError('')
      // jsdom has no showModal: fall back to the open attribute there.
      if (typeof dialog.showModal === 'function') dialog.showModal()
      else dialog.setAttribute('open', '')
    }
    if (!user && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close()
      else dialog.removeAttribute('open')
    }
  }, [user])

  useEffect(() => {
    if (history.error) onUnauthorized(history.error)
  }, [history.error, onUnauthorized])

  const submit = () => {
    if (!user) return
    if (!motivo.trim()) {
      setError('El motivo de la revocación es requerido')
      return
    }
    revoke.mutate(
      { id: user.id, motivo },
      {
        onSuccess: (updated) => onRevoked(updated),
        onError: (err) => {
          if (onUnauthorized(err)) return
          setError(serverMessage(err, 'Error al revocar el perfil'))
        },
      },
    )
  }

  const submitLift = () => {
    if (!user) return
    if (!motivo.trim()) {
      setError('El motivo para levantar la revocación es requerido')
      return
    }
    lift.mutate(
      { id: user.id, motivo },
      {
        onSuccess: (updated) => {
          setMotivo('')
          onLifted(updated)
        },
        onError: (err) => {
          if (onUnauthorized(err)) return
          setError(serverMessage(err, 'Error al levantar la revocación'))
        },
      },
    )
  }

  const revoked = Boolean(user?.revokedAt)
  const liftForm = revoked && canLift
  // Only a standing validation can be revoked (after a lift there is none until a new check).
  const revokeForm = !revoked && canRevoke && Boolean(user?.fecha_validacion)
  return (
    <dialog
      ref={ref}
      className="modal"
      aria-labelledby="lifecycle-title"
      onCancel={(e) => {
        e.preventDefault()
        onClose()
      }}
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
          <form
            className="space-y-2"
            aria-label="Levantar la revocación"
            onSubmit={(e) => {
              e.preventDefault()
              submitLift()
            }}
          >
            <label className="floating-label block">
              <span>Motivo para levantar la revocación</span>
              <textarea
                className="textarea w-full"
                placeholder="Motivo para levantar la revocación"
                maxLength={500}
                value={motivo}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? 'lift-error' : undefined}
                onChange={(e) => {
                  setMotivo(e.target.value)
                  setError('')
                }}
              />
            </label>
            {error && (
              <p id="lift-error" className="text-sm text-error">
                {error}
              </p>
            )}
            <p className="text-sm text-base-content/70">
              La validación revocada no vuelve: la persona podrá hacer una nueva verificación biométrica y le avisaremos por
              correo. Queda registrado en la bitácora.
            </p>
            <div className="modal-action flex-wrap">
              <Button type="button" variant="outline" onClick={onClose} disabled={lift.isPending}>
                Cerrar
              </Button>
              <Button type="submit" disabled={lift.isPending}>
                {lift.isPending && <span className="loading loading-spinner loading-sm" />}
                Levantar revocación
              </Button>
            </div>
          </form>
        )}
        {revokeForm && (
          <form
            className="space-y-2"
            onSubmit={(e) => {
              e.preventDefault()
              submit()
            }}
          >
            <label className="floating-label block">
              <span>Motivo de la revocación</span>
              <textarea
                className="textarea w-full"
                placeholder="Motivo de la revocación"
                maxLength={500}
                value={motivo}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? 'revoke-error' : undefined}
                onChange={(e) => {
                  setMotivo(e.target.value)
                  setError('')
                }}
              />
            </label>
            {error && (
              <p id="revoke-error" className="text-sm text-error">
                {error}
              </p>
            )}
            <p className="text-sm text-base-content/70">
              La cuenta se conserva; la página pública y los pases dirán «Revocado» y los socios recibirán el aviso.
            </p>
            <div className="modal-action">
              <Button type="button" variant="outline" onClick={onClose} disabled={revoke.isPending}>
                Cerrar
              </Button>
              <Button type="submit" variant="destructive" disabled={revoke.isPending}>
                {revoke.isPending && <span className="loading loading-spinner loading-sm" />}
                Revocar validación
              </Button>
            </div>
          </form>
        )}
        {!liftForm && !revokeForm && (
          <div className="modal-action">
            <Button type="button" variant="outline" onClick={onClose}>
              Cerrar
            </Button>
          </div>
        )}
      </div>
      <form method="dialog" className="modal-backdrop">
        <button type="button" onClick={onClose} aria-label="Cerrar">
          close
        </button>
      </form>
    </dialog>
  )
}
