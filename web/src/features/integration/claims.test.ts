import { describe, expect, it } from 'vitest'
import { sessionEndpoints } from './content'

// Issue 52 item 6: the /integration page documents the claims of the ID and unavailableClaims.
describe('the session endpoints on /integration', () => {
  it('name every claim a session may ask for, and unavailableClaims', () => {
    const create = sessionEndpoints.find((e) => e.method === 'POST' && e.path === '/api/partner/v1/verification-sessions')
    const read = sessionEndpoints.find((e) => e.path === '/api/partner/v1/verification-sessions/{id}')
    for (const claim of ['name', 'profileId', 'validUntil', 'level', 'givenName', 'familyName', 'birthdate', 'ageOver18', 'nationality', 'curp']) {
      expect(create?.description).toContain(claim)
    }
    expect(create?.description).toMatch(/la fecha de nacimiento y la CURP solo se comparten si las pides y ella acepta/)
    expect(read?.description).toContain('unavailableClaims')
    const sample = JSON.parse(read?.response ?? '{}') as { shared: Record<string, unknown>; unavailableClaims: string[] }
    expect(sample.unavailableClaims).toEqual(['curp'])
    expect(sample.shared).not.toHaveProperty('curp')
  })
})
