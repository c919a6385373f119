import { Ban, RefreshCw } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Badge, type BadgeVariant } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { useToast } from '@/components/ui/toast'
import { serverMessage } from '@/lib/api-client'
import { useCancelInvitation } from '../api/cancel-invitation'
import { useInvitations } from '../api/get-invitations'
import type { Invitation, InvitationStatus } from '../api/types'
import { formatDate, statusLabel, typeLabel } from './format'

const statusVariant: Record<InvitationStatus, BadgeVariant> = {
  pending: 'warning',
  accepted: 'success',
  expired: 'secondary',
  cancelled: 'destructive',
}

/** A status badge of an invitation. */
export function InvitationStatusBadge({ status }: { status: InvitationStatus }) {
  return (
    <Badge variant={statusVariant[status]} data-testid="invitation-status">
      {statusLabel[status]}
    </Badge>
  )
}

/** The manage tab: every invitation with its status; pending ones can be cancelled. */
export function InvitationsList({ inviterId }: { inviterId: string }) {
  const invitations = useInvitations(inviterId)
  const cancel = useCancelInvitation()
  const { toast } = useToast()

  if (invitations.isPending) {
    return (
      <div className="flex justify-center py-10">
        <span className="loading loading-spinner loading-lg" aria-label="Cargando invitaciones" />
      </div>
    )
  }
  if (invitations.isError) {
    return <Alert variant="destructive" title="Error al obtener invitaciones" />
  }
  if (invitations.data.length === 0) {
    return <p className="py-8 text-center text-base-content/70">Aún no has enviado invitaciones.</p>
  }

  const onCancel = (inv: Invitation) =>
    cancel.mutate(
      { id: inv.id, inviterId },
      {
        onSuccess: () => toast({ title: 'Invitación cancelada', description: `La invitación de ${inv.inviteeName} fue cancelada.` }),
        onError: (err) =>
          toast({ title: 'Error al cancelar invitación', description: serverMessage(err, 'Error al cancelar invitación'), variant: 'destructive' }),
      },
    )
  const onRegenerate = () =>
    toast({ title: 'Próximamente', description: 'La regeneración de links estará disponible pronto.' })

  return (
    <ul className="space-y-3">
      {invitations.data.map((inv) => (
        <li key={inv.id} className="rounded-box border border-base-300 p-4" data-testid="invitation-row" data-email={inv.inviteeEmail}>
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div className="min-w-0 space-y-1">
              <p className="font-semibold">{inv.inviteeName}</p>
              <p className="text-sm text-base-content/70 break-all">{inv.inviteeEmail}</p>
              <p className="text-xs text-base-content/70">
                {typeLabel[inv.type]}
                {inv.companyName ? ` · ${inv.companyName}` : ''} · Vence el {formatDate(inv.expiresAt)}
                {inv.acceptedAt ? ` · Aceptada el ${formatDate(inv.acceptedAt)}` : ''}
              </p>
            </div>
            <InvitationStatusBadge status={inv.status} />
          </div>
          {inv.status === 'pending' && (
            <div className="mt-3 flex flex-wrap gap-2">
              <Button size="sm" variant="outline" onClick={onRegenerate}>
                <RefreshCw className="size-4" aria-hidden />
                Regenerar link
              </Button>
              <Button size="sm" variant="destructive" disabled={cancel.isPending} onClick={() => onCancel(inv)}>
                <Ban className="size-4" aria-hidden />
                Cancelar
              </Button>
            </div>
          )}
        </li>
      ))}
    </ul>
  )
}
