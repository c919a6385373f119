import { useEffect, useId, useRef, type ReactNode } from 'react'
import { Button, type ButtonVariant } from './button'

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
  const ref = useRef<HTMLDialogElement>(null)
  const id = useId()
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    // jsdom has no showModal: fall back to the open attribute there.
    if (open && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal()
      else dialog.setAttribute('open', '')
    }
    if (!open && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close()
      else dialog.removeAttribute('open')
    }
  }, [open])

  return (
    <dialog
      ref={ref}
      className="modal"
      aria-labelledby={`${id}-title`}
      onCancel={(e) => {
        e.preventDefault()
        onCancel()
      }}
    >
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
          <Button variant={confirmVariant} onClick={onConfirm} disabled={pending}>
            {pending && <span className="loading loading-spinner loading-sm" />}
            {confirmLabel}
          </Button>
        </div>
      </div>
      <form method="dialog" className="modal-backdrop">
        <button type="button" onClick={onCancel} aria-label="Cerrar">
          close
        </button>
      </form>
    </dialog>
  )
}
