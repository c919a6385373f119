import { useEffect, useRef } from 'react'
import { Button } from '@/components/ui/button'

/** The delete confirmation of SPEC §8; open while userId is set. */
export function DeleteUserDialog({
  open,
  pending,
  onCancel,
  onConfirm,
}: {
  open: boolean
  pending: boolean
  onCancel: () => void
  onConfirm: () => void
}) {
  const ref = useRef<HTMLDialogElement>(null)
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
      aria-labelledby="delete-user-title"
      onCancel={(e) => {
        e.preventDefault()
        onCancel()
      }}
    >
      <div className="modal-box" role="alertdialog" aria-labelledby="delete-user-title" aria-describedby="delete-user-text">
        <h3 id="delete-user-title" className="text-lg font-bold">
          ¿Estás seguro?
        </h3>
        <p id="delete-user-text" className="py-4 text-base-content/80">
          Esta acción no se puede deshacer. Se eliminará permanentemente este usuario y su información de validación.
        </p>
        <div className="modal-action">
          <Button variant="outline" onClick={onCancel} disabled={pending}>
            Cancelar
          </Button>
          <Button variant="destructive" onClick={onConfirm} disabled={pending}>
            {pending && <span className="loading loading-spinner loading-sm" />}
            Eliminar
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
