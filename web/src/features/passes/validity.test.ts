import { describe, expect, it } from 'vitest'
import { passExpiry, quirkVigenciaHasta } from './validity'

describe('validity', () => {
  const today = new Date(2026, 10, 21)

  it("'Vigencia hasta' is today + 1 year for vigencia 1 and today + 5 years otherwise (the quirk)", () => {
    expect(quirkVigenciaHasta(1, today).getFullYear()).toBe(2027)
    expect(quirkVigenciaHasta(5, today).getFullYear()).toBe(2031)
    expect(quirkVigenciaHasta(10, today).getFullYear()).toBe(2031)
    expect(quirkVigenciaHasta(10, today).getMonth()).toBe(10)
  })

  it('the card uses fecha_validacion + vigencia years', () => {
    expect(passExpiry('2024-03-07T12:00:00Z', 10)?.toISOString()).toBe('2034-03-07T12:00:00.000Z')
    expect(passExpiry('2024-03-07T12:00:00Z', 1)?.toISOString()).toBe('2025-03-07T12:00:00.000Z')
    expect(passExpiry(null, 5)).toBeNull()
  })
})
