import { useEffect, useState } from 'react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { useToast } from '@/components/ui/toast'
import { errorBody, serverMessage } from '@/lib/api-client'
import { formatDateTimeMx } from '@/lib/format'
import { useDecideIdentityReview, useIdentityReviews, type IdentityCheck } from '../api/identity-reviews'
import { IdentityCheckDetails, VERDICT_LABEL } from './identity-check-details'
import { useAdminUnauthorizedOn } from './use-admin-unauthorized'

/** The limits of a decline's reason (the server checks the same). */
export const REASON_MIN = 10
export const REASON_MAX = 500

/** Checks a decline's reason; the message in Spanish, or '' when it is fine. */
export function reasonError(reason: string): string {
  const text = reason.trim()
  if (!text) return 'Escribe el motivo del rechazo (se le enviará a la persona).'
  if (text.length < REASON_MIN) return 'El motivo debe tener al menos 10 caracteres.'
  if (text.length > REASON_MAX) return 'El motivo no puede exceder 500 caracteres.'
  return ''
}

type Decision = { check: IdentityCheck; approve: boolean }

/** One check waiting for review: the two names side by side, what the document says and what was found. */
function ReviewCard({ check, onDecide }: { check: IdentityCheck; onDecide: (d: Decision) => void }) {
  const [label, variant] = VERDICT_LABEL[check.verdict]
  return (
    <article className="space-y-4 rounded-box border border-base-300 p-4" data-testid="identity-review" aria-label={`Revisión de ${check.typedName}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <div className="font-mono text-xs text-base-content/70">{check.profileId}</div>
          <div className="text-xs text-base-content/70">Verificada el {formatDateTimeMx(check.checkedAt)}</div>
        </div>
        <Badge variant={variant}>{label}</Badge>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="rounded-box bg-base-200 p-3">
          <div className="text-xs text-base-content/70">Nombre registrado</div>
          <div className="text-lg font-semibold" data-testid="typed-name">
            {check.typedName}
          </div>
        </div>
        <div className="rounded-box bg-base-200 p-3">
          <div className="text-xs text-base-content/70">Nombre en la identificación</div>
          <div className="text-lg font-semibold" data-testid="document-name">
            {check.documentName || 'Sin nombre legible'}
          </div>
        </div>
      </div>
      <IdentityCheckDetails check={check} />
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={() => onDecide({ check, approve: true })} disabled={!check.document || !check.documentName}>
          Aprobar
        </Button>
        <Button size="sm" variant="outline" className="text-error" onClick={() => onDecide({ check, approve: false })}>
          Rechazar
        </Button>
      </div>
    </article>
  )
}

/** "Revisión de identidad": the checks whose document could not be settled alone, to approve (the document's name) or decline with a reason. */
export function IdentityReviewsPanel() {
  const reviews = useIdentityReviews()
  const onUnauthorized = useAdminUnauthorizedOn(reviews.error)
  const decide = useDecideIdentityReview()
  const { toast } = useToast()
  const [target, setTarget] = useState<Decision | null>(null)
  const [reason, setReason] = useState('')
  const [error, setError] = useState('')

  useEffect(() => {
    setReason('')
    setError('')
  }, [target])

  const confirm = () => {
    if (!target) return
    const { check, approve } = target
    if (!approve) {
      const problem = reasonError(reason)
      if (problem) {
        setError(problem)
        return
      }
    }
    decide.mutate(approve ? { verificationId: check.verificationId, approve } : { verificationId: check.verificationId, approve, reason: reason.trim() }, {
      onSuccess: () => {
        setTarget(null)
        toast(
          approve
            ? { title: 'Identidad validada', description: `${check.documentName} tiene su identidad validada. Le avisamos por correo.` }
            : { title: 'Revisión rechazada', description: `Le avisamos a ${check.typedName} con el motivo.` },
        )
      },
      onError: (err) => {
        if (onUnauthorized(err)) return
        const field = (errorBody(err)?.errors as Record<string, string> | undefined)?.reason
        setError(field ?? serverMessage(err, 'No se pudo guardar la decisión.'))
      },
    })
  }

  const list = reviews.data ?? []
  return (
    <div className="space-y-4">
      <p className="text-sm text-base-content/70">
        Verificaciones aprobadas cuyo documento no se pudo decidir solo: nombre parecido, CURP o registro oficial que no coinciden, o sin datos del
        documento. Las más antiguas van primero. Aprobar valida el perfil con el nombre de la identificación.
      </p>
      {reviews.isPending && <p className="text-sm text-base-content/70">Cargando revisiones…</p>}
      {reviews.isError && (
        <div className="flex items-center gap-2 text-sm text-error">
          Error al cargar las revisiones.
          <Button size="sm" variant="outline" onClick={() => void reviews.refetch()}>
            Reintentar
          </Button>
        </div>
      )}
      {reviews.isSuccess && !list.length && <p className="text-sm text-base-content/70">No hay revisiones pendientes.</p>}
      {list.map((check) => (
        <ReviewCard key={check.verificationId} check={check} onDecide={setTarget} />
      ))}
      <ConfirmDialog
        open={target !== null}
        pending={decide.isPending}
        title={target?.approve ? 'Aprobar identidad' : 'Rechazar revisión'}
        confirmLabel={target?.approve ? 'Aprobar' : 'Rechazar'}
        confirmVariant={target?.approve ? 'default' : 'destructive'}
        onCancel={() => setTarget(null)}
        onConfirm={confirm}
      >
        {target && (
          <div className="space-y-3">
            {target.approve ? (
              <p>
                El perfil {target.check.profileId} quedará validado con el nombre de la identificación: <strong>{target.check.documentName}</strong>. Te
                pediremos confirmar con tu llave de acceso.
              </p>
            ) : (
              <>
                <p>
                  {target.check.typedName} no recibirá la validación. Le enviaremos el motivo por correo. Te pediremos confirmar con tu llave de acceso.
                </p>
                <label className="block space-y-1.5">
                  <span className="block text-sm font-medium text-base-content">Motivo del rechazo</span>
                  <textarea
                    className={`textarea w-full ${error ? 'textarea-error' : ''}`}
                    rows={3}
                    maxLength={REASON_MAX}
                    value={reason}
                    aria-invalid={error ? true : undefined}
                    onChange={(e) => {
                      setReason(e.target.value)
                      setError('')
                    }}
                  />
                </label>
              </>
            )}
            {error && <p className="text-sm text-error">{error}</p>}
          </div>
        )}
      </ConfirmDialog>
    </div>
  )
}
