import type { InvitationStatus, InvitationType } from '../api/types'

/** Spanish names of the invitation types. */
export const typeLabel: Record<InvitationType, string> = { client: 'Cliente', broker: 'Broker' }

/** Spanish names of the invitation states. */
export const statusLabel: Record<InvitationStatus, string> = {
  pending: 'Pendiente',
  accepted: 'Aceptada',
  expired: 'Expirada',
  cancelled: 'Cancelada',
}

/** A date in the es-MX locale (SPEC §9). */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return ''
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleDateString('es-MX', { day: 'numeric', month: 'long', year: 'numeric' })
}
