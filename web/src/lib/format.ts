// Money and dates as the screens show them (es-MX, Mexico City time).

const MX_TIME_ZONE = 'America/Mexico_City'

/** '$299 MXN': a plan price in whole pesos. */
export function formatPrice(pesos: number): string {
  return `$${pesos.toLocaleString('es-MX', { maximumFractionDigits: 2 })} MXN`
}

/** '$299.00 MXN': an amount charged, with centavos. */
export function formatAmount(pesos: number): string {
  return `$${pesos.toLocaleString('es-MX', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} MXN`
}

const dateTimeParts = new Intl.DateTimeFormat('es-MX', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: MX_TIME_ZONE,
})

function parts(iso: string | null | undefined): Record<string, string> | null {
  if (!iso) return null
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return null
  return Object.fromEntries(dateTimeParts.formatToParts(date).map((p) => [p.type, p.value]))
}

/** 'dd/mm/yyyy' in Mexico City time, or '—'. */
export function formatDateMx(iso: string | null | undefined): string {
  const p = parts(iso)
  return p ? `${p.day}/${p.month}/${p.year}` : '—'
}

/** 'dd/mm/yyyy HH:mm' in Mexico City time, or '—'. */
export function formatDateTimeMx(iso: string | null | undefined): string {
  const p = parts(iso)
  return p ? `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}` : '—'
}

/** A free text (an administrator's reason) to put inside a sentence that ends with its own period:
 *  without its closing periods, so "Motivo: Documento robado." does not end in "..". */
export function withoutClosingPeriod(text: string): string {
  return text.trim().replace(/[.\s]+$/, '')
}
