import { describe, expect, it } from 'vitest'
import { formatAmount, formatDateMx, formatDateTimeMx, formatPrice, withoutClosingPeriod } from './format'

describe('format', () => {
  it('writes prices and amounts in pesos', () => {
    expect(formatPrice(299)).toBe('$299 MXN')
    expect(formatAmount(299)).toBe('$299.00 MXN')
    expect(formatAmount(1299.5)).toBe('$1,299.50 MXN')
  })

  it('writes dates in Mexico City time', () => {
    expect(formatDateTimeMx('2026-03-05T05:30:00Z')).toBe('04/03/2026 23:30')
    expect(formatDateTimeMx('2026-03-05T18:00:00Z')).toBe('05/03/2026 12:00')
    expect(formatDateMx('2026-03-05T18:00:00Z')).toBe('05/03/2026')
    expect(formatDateTimeMx(null)).toBe('—')
    expect(formatDateTimeMx('nope')).toBe('—')
  })
})

describe('withoutClosingPeriod', () => {
  it('drops the closing periods and spaces of a free text, nothing else', () => {
    expect(withoutClosingPeriod('Documento robado.')).toBe('Documento robado')
    expect(withoutClosingPeriod('Documento robado...  ')).toBe('Documento robado')
    expect(withoutClosingPeriod('Doc. robado')).toBe('Doc. robado')
    expect(withoutClosingPeriod('')).toBe('')
  })
})
