// The validated-profile screen keeps the spec's quirk (SPEC §9, DECISIONS.md): its
// 'Vigencia hasta' is today + 1 year when vigencia is 1, otherwise today + 5 years.
// The card on the same screen uses the real expiry: fecha_validacion + vigencia years.

/** 'Vigencia hasta' of the validated-profile screen (the quirk). */
export function quirkVigenciaHasta(vigencia: number | null | undefined, today: Date = new Date()): Date {
  const date = new Date(today)
  date.setFullYear(date.getFullYear() + (vigencia === 1 || vigencia == null ? 1 : 5))
  return date
}

/** The real pass expiry: fecha_validacion + vigencia years (null when not validated). */
export function passExpiry(fechaValidacion: string | null | undefined, vigencia: number | null | undefined): Date | null {
  if (!fechaValidacion) return null
  const date = new Date(fechaValidacion)
  if (Number.isNaN(date.getTime())) return null
  date.setFullYear(date.getFullYear() + (vigencia ?? 1))
  return date
}
