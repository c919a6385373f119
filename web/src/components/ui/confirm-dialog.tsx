import { useId, type ReactNode } from 'react'
import { Button, type ButtonVariant } from './button'
import { Modal } from './modal'

/** Props of ConfirmDialog. */
export type ConfirmDialogProps = {
  open: boolean
  title: ReactNode
  children: ReactNode
  /** The confirm button's text. */
  confirmLabel: string
  /** The confirm button's look: destructive (red) unless the action is not one. */
  confirmVariant?: ButtonVariant
  /** Disables both buttons and shows a spinner on the confirm one. */
  pending?: boolean
  onCancel: () => void
  onConfirm: () => void
}

/** A daisyUI modal asking to confirm an action (destructive by default): Cancelar or the confirm button. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  confirmVariant = 'destructive',
  pending = false,
  onCancel,
  onConfirm,
}: ConfirmDialogProps) {
  const id = useId()
  return (
    <Modal open={open} onClose={onCancel} labelledBy={`${id}-title`} backdrop>
      <div className="modal-box" role="alertdialog" aria-labelledby={`${id}-title`} aria-describedby={`${id}-text`}>
        <h3 id={`${id}-title`} className="text-lg font-bold">
          {title}
        </h3>
        <div id={`${id}-text`} className="py-4 text-base-content/80">
          {children}
        </div>
        <div className="modal-action">
          <Button variant="outline" onClick={onCancel} disabled={pending}>
            Cancelar
          </Button>
          <Button variant={confirmVariant} onClick={onConfirm} disabled={pending} pending={pending}>
            {confirmLabel}
          </Button>
        </div>
      </div>
    </Modal>
  )
}
