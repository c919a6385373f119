import { ConfirmDialog } from '@/components/ui/confirm-dialog'

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
  return (
    <ConfirmDialog open={open} pending={pending} title="¿Estás seguro?" confirmLabel="Eliminar" onCancel={onCancel} onConfirm={onConfirm}>
      <p>Esta acción no se puede deshacer. Se eliminará permanentemente este usuario y su información de validación.</p>
    </ConfirmDialog>
  )
}
