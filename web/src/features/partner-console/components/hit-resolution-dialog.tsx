import { useId, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/input'
import { Modal } from '@/components/ui/modal'
import { errorBody, serverMessage } from '@/lib/api-client'
import type { Hit } from '../types'

/** The decision being taken on a hit, or null when the dialog is closed. */
export type PendingDecision = { hit: Hit; decision: 'descartada' | 'confirmada' } | null

/** The shortest reason the server accepts. */
export const MIN_REASON = 5

/**
 * Asks for the reason of a ruling on a possible hit (at least 5 characters, as the server checks)
 * and says, before a confirmation on a blocked-persons list, that it stops the operation and
 * raises the 24-hour aviso. onSubmit rejects with the server's error, shown in the dialog.
 */
export function HitResolutionDialog({
  pending,
  onClose,
  onSubmit,
}: {
  pending: PendingDecision
  onClose: () => void
  onSubmit: (reason: string) => Promise<unknown>
}) {
  const id = useId()
  const [reason, setReason] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)
  const confirming = pending?.decision === 'confirmada'

  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    const text = reason.trim()
    if (text.length < MIN_REASON) {
      setError('Explica el motivo de la resolución (al menos 5 caracteres).')
      return
    }
    setBusy(true)
    try {
      await onSubmit(text)
      onClose()
    } catch (err) {
      const fields = (errorBody(err)?.errors ?? {}) as Record<string, string>
      setError(fields.reason ?? serverMessage(err, 'No se pudo guardar la resolución. Intenta de nuevo.'))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Modal
      open={pending !== null}
      onClose={onClose}
      onOpen={() => {
        setReason('')
        setError(undefined)
      }}
      labelledBy={`${id}-title`}
      className="modal-bottom sm:modal-middle"
    >
      {pending && (
        <form className="modal-box space-y-4" onSubmit={submit} noValidate data-testid="hit-dialog">
          <h3 id={`${id}-title`} className="text-lg font-bold">
            {confirming ? 'Confirmar la coincidencia' : 'Descartar la coincidencia'}
          </h3>
          <p className="text-sm">
            «{pending.hit.matchedName}» en {pending.hit.list}
            {pending.hit.version !== null && ` (versión ${pending.hit.version})`}.
          </p>
          {confirming && pending.hit.blocking && (
            <div role="alert" className="alert alert-error alert-soft text-sm">
              Es una lista de personas bloqueadas: confirmarla detiene la operación y genera el aviso de operación sospechosa, que
              vence en 24 horas.
            </div>
          )}
          <Field label="Motivo (queda en el expediente y en la bitácora)" htmlFor={`${id}-reason`} error={error}>
            <textarea
              id={`${id}-reason`}
              className="textarea w-full"
              rows={3}
              maxLength={2000}
              value={reason}
              aria-invalid={!!error}
              onChange={(e) => setReason(e.target.value)}
            />
          </Field>
          <div className="modal-action">
            <Button type="button" variant="outline" onClick={onClose} disabled={busy}>
              Cancelar
            </Button>
            <Button type="submit" variant={confirming ? 'destructive' : 'default'} disabled={busy}>
              {confirming ? 'Confirmar' : 'Descartar'}
            </Button>
          </div>
        </form>
      )}
    </Modal>
  )
}
