import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { renderRoute } from '@/testing/render-route'
import { profileUser } from '@/testing/profile-user'

const user = profileUser({ verificationLevel: 2 })

describe('/profile after the e-mail link', () => {
  it('shows level 2 complete and continues to the biometric step from a click', async () => {
    localStorage.setItem('userId', '7')
    const { calls } = mockApi({
      'GET /api/users/7': { json: user },
      'GET /api/users/7/verification-status': { json: { verificationLevel: 2, biometricVerified: false } },
      'GET /api/auth/status': { json: {} },
      'POST /api/start-verification': { json: { verificationUrl: 'http://localhost/dev/biometric/x', sessionId: 1 } },
    })
    const popup = { location: { href: '' }, close: vi.fn() }
    const open = vi.fn(() => popup)
    vi.stubGlobal('open', open)
    renderRoute('/profile?emailVerified=1&startBiometric=1')

    expect(await screen.findByText('Nivel 2 Completado', {}, { timeout: 5000 })).toBeInTheDocument()
    expect(screen.getByText('Email Verificado')).toBeInTheDocument()
    expect(open).not.toHaveBeenCalled()
    await userEvent.click(await screen.findByRole('button', { name: 'Continuar con la verificación biométrica' }))
    expect(open).toHaveBeenCalledWith('', '_blank')
    await vi.waitFor(() => expect(popup.location.href).toBe('http://localhost/dev/biometric/x'))
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/start-verification')).toBe(true)
  })

  it('shows only the level-2 notice without startBiometric', async () => {
    localStorage.setItem('userId', '7')
    mockApi({
      'GET /api/users/7': { json: user },
      'GET /api/users/7/verification-status': { json: { verificationLevel: 2, biometricVerified: false } },
      'GET /api/auth/status': { json: {} },
    })
    renderRoute('/profile?emailVerified=1')
    expect(await screen.findByText('Nivel 2 Completado', {}, { timeout: 5000 })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Continuar con la verificación biométrica' })).not.toBeInTheDocument()
  })
})
