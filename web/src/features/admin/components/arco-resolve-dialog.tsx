import { useEffect, useState } from 'react'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { serverMessage } from '@/lib/api-client'
import { ARCO_TYPE_LABEL } from '@/lib/arco'
import type { AdminArcoRequest } from '../api/get-arco-requests'
import { useResolveArcoRequest, type ResolveArcoRequestInput } from '../api/resolve-arco-request'
import { arcoResolutionSchema } from '../schemas'

/** Which request is being closed, and how. */
export type ArcoResolution = { request: AdminArcoRequest; state: ResolveArcoRequestInput['state'] }

/** Closes an ARCO request as answered or rejected, with the answer given (required). Open while target is set. */
export function ArcoResolveDialog({
  target,
  onClose,
  onResolved,
  onUnauthorized,
}: {
  target: ArcoResolution | null
  onClose: () => void
  onResolved: (r: ArcoResolution) => void
  onUnauthorized: (err: unknown) => boolean
}) {
  const resolve = useResolveArcoRequest()
  const [resolution, setResolution] = useState('')
  const [error, setError] = useState('')

  useEffect(() => {
    setResolution('')
    setError('')
  }, [target])

  const rejecting = target?.state === 'rechazada'
  const confirm = () => {
    if (!target) return
    const parsed = arcoResolutionSchema.safeParse(resolution)
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? '')
      return
    }
    resolve.mutate(
      { id: target.request.id, state: target.state, resolution: parsed.data },
      {
        onSuccess: () => onResolved(target),
        onError: (err) => {
          if (onUnauthorized(err)) return
          setError(serverMessage(err, 'No se pudo actualizar la solicitud.'))
        },
      },
    )
  }

  return (
    <ConfirmDialog
      open={target !== null}
      pending={resolve.isPending}
      title={rejecting ? 'Rechazar solicitud' : 'Marcar solicitud como atendida'}
      confirmLabel={rejecting ? 'Rechazar' : 'Marcar atendida'}
      confirmVariant={rejecting ? 'destructive' : 'default'}
      onCancel={onClose}
      onConfirm={confirm}
    >
      {target && (
        <div className="space-y-3">
          <p>
            {ARCO_TYPE_LABEL[target.request.type]} de {target.request.nombre ?? target.request.profileId ?? 'una cuenta eliminada'}.
          </p>
          <label className="block space-y-1.5">
            <span className="block text-sm font-medium text-base-content">{rejecting ? 'Motivo del rechazo' : 'Respuesta dada'}</span>
            <textarea
              className={`textarea w-full ${error ? 'textarea-error' : ''}`}
              rows={3}
              maxLength={2000}
              value={resolution}
              aria-invalid={error ? true : undefined}
              onChange={(e) => {
                setResolution(e.target.value)
                setError('')
              }}
            />
          </label>
          {error && <p className="text-sm text-error">{error}</p>}
        </div>
      )}
    </ConfirmDialog>
  )
}
