// Mexican phone numbers as the forms take them: ten digits typed after a fixed +52 (MxPhoneInput).

/** Counts the digits of a string. */
export function digitCount(value: string): number {
  return value.replace(/\D/g, '').length
}

/** Keeps what may be typed in a Mexican phone input (SPEC §5): digits and spaces, at most 10 digits. */
export function mxPhoneTypingFilter(value: string): string {
  let digits = 0
  let out = ''
  for (const ch of value) {
    if (ch === ' ') out += ch
    else if (/\d/.test(ch) && digits < 10) {
      out += ch
      digits++
    }
  }
  return out
}

/** '+52' and the ten digits typed, spaces removed. */
export function withMxPrefix(value: string): string {
  return `+52${value.replace(/\D/g, '')}`
}
