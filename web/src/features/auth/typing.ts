// What the auth screens do while a person types: filters and the phone's normal form. No zod here,
// so the screens paint before the validation rules (./schemas.ts) have loaded (issue 38).

/** Keeps only digits and spaces while the phone is typed (SPEC §5). */
export function phoneTypingFilter(value: string): string {
  return value.replace(/[^\d\s]/g, '')
}

/**
 * Normalizes the registration phone (SPEC §5): spaces removed; a leading
 * +52 is kept, a leading 52 gets '+', otherwise +52 is prepended. A
 * 10-digit number that merely starts with 52 is a national number, so it
 * gets the prefix too.
 */
export function normalizeMexicanPhone(value: string): string {
  const compact = value.replace(/\s+/g, '')
  if (compact.startsWith('+52')) return compact
  if (compact.startsWith('52') && compact.length > 10) return `+${compact}`
  return `+52${compact.replace(/^\+/, '')}`
}
