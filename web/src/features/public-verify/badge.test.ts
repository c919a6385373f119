import { describe, expect, it } from 'vitest'
import { publicBadge } from './badge'

describe('publicBadge (SPEC §4)', () => {
  it.each([
    [{ revocado: true, expirado: true, verificado: false, nivel_verificacion: 3 }, 'Revocado'],
    [{ revocado: true, expirado: false, verificado: false, nivel_verificacion: 3 }, 'Revocado'],
    [{ revocado: false, expirado: true, verificado: true, nivel_verificacion: 3 }, 'Expirado'],
    [{ expirado: true, verificado: true, nivel_verificacion: 3 }, 'Expirado'],
    [{ expirado: false, verificado: true, nivel_verificacion: 3 }, 'Verificado'],
    [{ expirado: false, verificado: false, nivel_verificacion: 3 }, 'Email Verificado'],
    [{ expirado: false, verificado: false, nivel_verificacion: 2 }, 'Email Verificado'],
    [{ expirado: false, verificado: false, nivel_verificacion: 1 }, 'SMS Verificado'],
    [{ expirado: false, verificado: false, nivel_verificacion: 0 }, 'No Verificado'],
  ])('%o → %s', (profile, label) => {
    expect(publicBadge(profile).label).toBe(label)
  })
})
