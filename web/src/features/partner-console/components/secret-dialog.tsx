import { useId } from 'react'
import { TriangleAlert } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Modal } from '@/components/ui/modal'
import { CopyButton } from '@/components/ui/copy-button'

/** What a SecretDialog shows once. */
export type ShownSecret = {
  title: string
  /** What the value is, for the copy button ("la llave", "el secreto", "el enlace"). */
  label: string
  value: string
  /** The warning; the key's by default. */
  warning?: string
  /** A line under the value (how to use it). */
  note?: string
}

/** The warning of a secret shown once. */
export const SHOWN_ONCE = 'Guárdala ahora: no volverás a verla.'

/**
 * A modal that shows a secret (a key, a signing secret, an enrolment link) the one time the server
 * gives it, with a copy button and the warning that it will not be shown again.
 */
export function SecretDialog({ secret, onClose }: { secret: ShownSecret | null; onClose: () => void }) {
  const id = useId()
  return (
    <Modal open={secret !== null} onClose={onClose} labelledBy={`${id}-title`} className="modal-bottom sm:modal-middle">
      {secret && (
        <div className="modal-box space-y-4" data-testid="secret-dialog">
          <h3 id={`${id}-title`} className="text-lg font-bold">
            {secret.title}
          </h3>
          <div role="alert" className="alert alert-warning alert-soft items-start">
            <TriangleAlert className="size-5 shrink-0" aria-hidden />
            <p className="text-sm font-medium">{secret.warning ?? SHOWN_ONCE}</p>
          </div>
          <div className="flex flex-col gap-2 rounded-box border border-base-300 bg-base-200 p-3 sm:flex-row sm:items-center">
            <code className="min-w-0 flex-1 break-all font-mono text-sm" data-testid="secret-value">
              {secret.value}
            </code>
            <CopyButton text={secret.value} label={secret.label} />
          </div>
          {secret.note && <p className="text-sm text-base-content/70">{secret.note}</p>}
          <div className="modal-action">
            <Button onClick={onClose}>Entendido</Button>
          </div>
        </div>
      )}
    </Modal>
  )
}
