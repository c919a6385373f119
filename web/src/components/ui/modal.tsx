import { useEffect, useRef, type ReactNode } from 'react'
import { cn } from '@/lib/cn'

/** Props of Modal. */
export type ModalProps = {
  open: boolean
  /** Escape, and a click on the backdrop when there is one. */
  onClose: () => void
  /** Called each time the modal opens, to start it afresh. */
  onOpen?: () => void
  /** The id of the modal's heading. */
  labelledBy: string
  /** More classes for the dialog (its placement). */
  className?: string
  /** A click outside the box closes it. */
  backdrop?: boolean
  children: ReactNode
}

/** A daisyUI modal on a native dialog, shown while open. */
export function Modal({ open, onClose, onOpen, labelledBy, className, backdrop = false, children }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    // jsdom has no showModal: fall back to the open attribute there.
    if (open && !dialog.open) {
      onOpen?.()
      if (typeof dialog.showModal === 'function') dialog.showModal()
      else dialog.setAttribute('open', '')
    }
    if (!open && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close()
      else dialog.removeAttribute('open')
    }
    // Only a change of open shows or closes it; onOpen is read at that moment, so it is no dependency.
  }, [open])

  return (
    <dialog
      ref={ref}
      className={cn('modal', className)}
      aria-labelledby={labelledBy}
      onCancel={(e) => {
        e.preventDefault()
        onClose()
      }}
    >
      {children}
      {backdrop && (
        <form method="dialog" className="modal-backdrop">
          <button type="button" onClick={onClose} aria-label="Cerrar">
            close
          </button>
        </form>
      )}
    </dialog>
  )
}
