import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { Schema } from '@/lib/api-types'
import { mockApi } from '@/testing/mock-api'
import { profileRoutes, profileUser } from '@/testing/profile-user'
import { renderRoute } from '@/testing/render-route'

// Issue 38, "Revocation must mean revoked": while an administrator's revocation stands, no part of
// Mi Perfil says the person is verified or may validate again.

type Status = Schema<'PaymentStatusResponse'>

const REVOKED_REASON = 'Tu validación fue revocada: no puedes iniciar una nueva verificación hasta que soporte revise tu caso.'

const revokedPlan: Status = {
  paymentsEnabled: true,
  state: 'revoked',
  freeEligible: false,
  mayStartBiometric: false,
  message: 'Tu validación fue revocada: no puedes pagar ni iniciar una nueva verificación hasta que soporte revise tu caso.',
  plans: [],
}

const revocation = { revokedAt: '2026-11-20T18:00:00Z', revokedReason: 'Documento reportado como robado' }

/** A validated person whose validation was revoked. */
const revokedValidated = profileUser({
  verificationLevel: 3,
  biometricVerified: true,
  isEmailVerified: true,
  fecha_validacion: '2026-06-01T12:00:00Z',
  validUntil: '2027-06-01T12:00:00Z',
  ...revocation,
})

/** The same person after correcting their name: the validation is annulled (level 2), still revoked. */
const revokedRenamed = profileUser({
  nombre: 'Ana López Ruiz',
  verificationLevel: 2,
  biometricVerified: false,
  isEmailVerified: true,
  ...revocation,
})

function api(user: Record<string, unknown>, plan: Status = revokedPlan) {
  return mockApi({ ...profileRoutes(user, { biometricVerified: true, revoked: true }), 'GET /api/payments/status': { json: plan } })
}

async function expectRevokedEverywhere() {
  const badge = await screen.findByTestId('verification-badge')
  expect(badge).toHaveTextContent('Verificación revocada')
  expect(screen.queryByText('Verificación completa')).not.toBeInTheDocument()
  expect(screen.queryByText('Verificación en proceso')).not.toBeInTheDocument()
  expect(screen.queryByText('Identidad verificada')).not.toBeInTheDocument()
  expect(screen.getByText(/Mientras siga revocada, no puedes iniciar una nueva verificación\./).closest('[role=alert]')).toHaveTextContent(
    'Validación revocada',
  )

  // The start button is there, disabled, with the reason; no consent card stands in front of it.
  const start = screen.getByRole('button', { name: 'Completar Verificación' })
  expect(start).toBeDisabled()
  expect(start).toHaveAccessibleDescription(REVOKED_REASON)

  // The level says revoked, the pass says Revocado, the plan is not "active".
  const info = badge.closest('.card') as HTMLElement
  expect(within(info).getByText('Nivel de verificación').nextElementSibling).toHaveTextContent('Revocado')
  expect(screen.getByTestId('card-status')).toHaveTextContent('Revocado')
  expect(screen.getByTestId('digital-id-card')).not.toHaveTextContent('ID Validado')
  const plan = await screen.findByTestId('plan-card')
  expect(plan).not.toHaveTextContent('Plan activo')
  expect(within(plan).getByTestId('plan-revoked')).toHaveTextContent('Validación revocada')
  expect(within(plan).queryByRole('button')).not.toBeInTheDocument()
  expect(screen.queryByText('Primero elige y paga tu plan.')).not.toBeInTheDocument()

  // The credential card says it was revoked and offers nothing.
  const credential = screen.getByTestId('credential-card')
  expect(within(credential).getByTestId('credential-revoked')).toHaveTextContent('Revocada')
  expect(within(credential).queryByRole('button')).not.toBeInTheDocument()
}

describe('/profile while revoked', () => {
  it('never says verified, and the check cannot start', async () => {
    localStorage.setItem('userId', '7')
    api(revokedValidated)
    renderRoute('/profile')
    await expectRevokedEverywhere()
    expect(screen.queryByRole('button', { name: 'Renovar mi validación' })).not.toBeInTheDocument()
  })

  it('still says revoked after a name correction annulled the validation', async () => {
    localStorage.setItem('userId', '7')
    api(revokedRenamed)
    renderRoute('/profile')
    await expectRevokedEverywhere()
    expect(screen.getAllByText('Ana López Ruiz').length).toBeGreaterThan(0)
  })

  it('does not continue to the biometric check from the e-mail link', async () => {
    localStorage.setItem('userId', '7')
    api(revokedRenamed)
    renderRoute('/profile?emailVerified=1&startBiometric=1')
    await expectRevokedEverywhere()
    for (const button of screen.getAllByRole('button', { name: /verificación/i })) {
      expect(button).toBeDisabled()
    }
  })

  it('after the lift the person may validate again', async () => {
    localStorage.setItem('userId', '7')
    const lifted = profileUser({ verificationLevel: 2, biometricVerified: false, isEmailVerified: true, revokedAt: null })
    api(lifted, {
      paymentsEnabled: true,
      state: 'active',
      freeEligible: false,
      mayStartBiometric: true,
      message: 'Tu plan sigue activo. Valida tu identidad de nuevo para recuperar tu pase.',
      plans: [],
    })
    renderRoute('/profile')
    expect(await screen.findByTestId('verification-badge')).toHaveTextContent('Verificación en proceso')
    expect(screen.queryByText('Validación revocada')).not.toBeInTheDocument()
    expect(screen.queryByText(REVOKED_REASON)).not.toBeInTheDocument()
  })
})
