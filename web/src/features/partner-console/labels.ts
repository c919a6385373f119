import type {
  BusinessRole,
  ConsoleAction,
  ConsoleMe,
  Delivery,
  OperationKind,
  OperationPersonRole,
  PartnerRole,
  SharedReason,
  VerificationSession,
} from './types'

// The console's codes as people read them: one place, beside the types that define them.

/** A role's name. */
export const ROLE_LABEL: Record<PartnerRole, string> = {
  propietario: 'Propietario',
  desarrollador: 'Desarrollador',
  cumplimiento: 'Cumplimiento',
  lectura: 'Solo lectura',
}

/** What each role may do, in one line. */
export const ROLE_HINT: Record<PartnerRole, string> = {
  propietario: 'Todo, incluido el equipo.',
  desarrollador: 'Llaves, webhook, origen y reenvíos.',
  cumplimiento: 'Oficial de cumplimiento: registra operaciones y ve a sus personas.',
  lectura: 'Solo consulta.',
}

/** Whether the signed-in user's role allows an action (the server checks it anyway). */
export function can(me: ConsoleMe | null | undefined, action: ConsoleAction): boolean {
  return Boolean(me?.actions.includes(action))
}

/** What a completed session says once the person's shared data is gone. */
export const SHARED_GONE: Record<SharedReason, string> = {
  withdrawn: 'Ya no disponible: la persona retiró el acceso de tu plataforma',
  deleted: 'Ya no disponible: la persona eliminó su cuenta',
}

/** A verification session's status. */
export const SESSION_STATUS: Record<VerificationSession['status'], string> = {
  created: 'Creada',
  in_progress: 'En curso',
  completed: 'Completada',
  declined: 'Rechazada',
  expired: 'Vencida',
  canceled: 'Cancelada',
}

/** A notification's delivery status. */
export const DELIVERY_STATUS: Record<Delivery['status'], string> = {
  delivered: 'Entregada',
  pending: 'Pendiente',
  retrying: 'Reintentando',
  failed: 'Fallida',
}

/** What a shared claim is. */
export const CLAIM_LABEL: Record<string, string> = {
  name: 'Nombre',
  profileId: 'ID de perfil',
  validUntil: 'Vigencia',
  level: 'Nivel',
}

/** A verification level. */
export const LEVEL_LABEL: Record<number, string> = { 2: 'Nivel 2 · correo', 3: 'Nivel 3 · biométrico' }

/** The platform's months, 'mar 2026'. */
export function monthLabel(month: string): string {
  const [y, m] = month.split('-').map(Number)
  if (!y || !m) return month
  const text = new Intl.DateTimeFormat('es-MX', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, 1)))
  return text.replace('.', '')
}

/** An LFPIORPI operation's kind. */
export const OPERATION_KIND: Record<OperationKind, string> = {
  compraventa: 'Compraventa',
  intermediacion: 'Intermediación',
  desarrollo: 'Desarrollo o preventa',
  arrendamiento: 'Arrendamiento',
}

/** What the business is in an operation. */
export const BUSINESS_ROLE: Record<BusinessRole, string> = {
  vendedor: 'Vendedor',
  comprador: 'Comprador',
  intermediario: 'Intermediario',
  desarrollador: 'Desarrollador',
  arrendador: 'Arrendador',
  arrendatario: 'Arrendatario',
}

/** What a person is in an operation. */
export const PERSON_ROLE: Record<OperationPersonRole, string> = {
  comprador: 'Comprador',
  vendedor: 'Vendedor',
  arrendador: 'Arrendador',
  arrendatario: 'Arrendatario',
  otro: 'Otro',
}

/** '$3,500,000.00 MXN' from the server's pesos string ('3500000.00'), without floating-point sums. */
export function pesosLabel(amount: string): string {
  const [whole = '0', cents = '00'] = amount.replace(/^-/, '').split('.')
  const grouped = BigInt(whole).toLocaleString('es-MX')
  return `${amount.startsWith('-') ? '-' : ''}$${grouped}.${cents.padEnd(2, '0')} MXN`
}

/** An operation's calendar day 'AAAA-MM-DD' as 'dd/mm/aaaa' (a date, no time zone to convert). */
export function dayLabel(day: string): string {
  const [y, m, d] = day.split('-')
  return y && m && d ? `${d}/${m}/${y}` : day
}
