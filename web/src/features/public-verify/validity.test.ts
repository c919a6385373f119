import { describe, expect, it } from 'vitest'
import type { PublicVerification } from './api/get-public-verification'
import { validityText } from './components/public-verify-screen'

// Issue 52: a validity the identity document's expiry ends says so, as the server's card does
// (api/spa_public_card.go; TestThePublicPageSaysTheIDEndsTheValidity).
const profile = (over: Record<string, unknown>) =>
  ({
    nombre: 'Ana María Ruiz Soto', telefono: null, email: null, origen: 'Otro', id: 'PS-1234-5678-90',
    nivel_verificacion: 3, verificado: true, expirado: false, revocado: false, fecha_revocacion: null,
    fecha_validacion: '2026-03-07T12:00:00Z', fecha_expiracion: '2031-03-07T12:00:00Z', vigencia_anos: 5,
    ...over,
  }) as PublicVerification['profile']

describe('the public card’s validity line', () => {
  it('names the ID’s last day when the ID ends the validity', () => {
    // The end of 15 March 2027 in Mexico City (UTC-6) is 16 March 06:00 UTC.
    const capped = profile({ vence_identificacion: true, fecha_expiracion: '2027-03-16T06:00:00Z' })
    expect(validityText(capped)).toBe('Vigente hasta 15 de marzo de 2027 (vence su identificación)')
  })

  it('says the plan’s years otherwise, and after the validity ended', () => {
    expect(validityText(profile({}))).toBe('5 años')
    expect(validityText(profile({ vigencia_anos: 1, vence_identificacion: false }))).toBe('1 año')
    expect(validityText(profile({ vence_identificacion: true, expirado: true, fecha_expiracion: '2027-03-16T06:00:00Z' }))).toBe('5 años')
  })
})
