import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { renderRoute } from '@/testing/render-route'
import { baseProfileUser } from '@/testing/profile-user'

const user = baseProfileUser

describe('/profile during biometric verification', () => {
  afterEach(() => vi.useRealTimers())

  it('shows the rejected-document guidance as soon as a poll reports Declined, then stops polling', async () => {
    localStorage.setItem('userId', '7')
    let last = 'Not Started'
    const { calls } = mockApi({
      'GET /api/users/7': { json: user },
      'GET /api/users/7/verification-status': () => ({
        json: { verificationLevel: 1, biometricVerified: false, lastBiometricStatus: last },
      }),
      'GET /api/auth/status': { json: {} },
      'POST /api/start-verification': { json: { verificationUrl: 'http://localhost/dev/biometric/x', sessionId: 1 } },
    })
    vi.stubGlobal('open', vi.fn(() => ({ location: { href: '' }, close: vi.fn() })))
    renderRoute('/profile')
    const button = await screen.findByRole('button', { name: 'Completar Verificación' }, { timeout: 5000 })
    vi.useFakeTimers({ shouldAdvanceTime: true })
    await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).click(button)
    expect(await screen.findByText('Esperando el resultado de tu verificación')).toBeInTheDocument()
    expect(screen.queryByText('Documento Rechazado')).not.toBeInTheDocument()

    last = 'Declined'
    await vi.advanceTimersByTimeAsync(5000)
    expect(await screen.findByText('Documento Rechazado')).toBeInTheDocument()
    expect(screen.queryByText('Esperando el resultado de tu verificación')).not.toBeInTheDocument()
    const polls = calls.filter((c) => c.path === '/api/users/7/verification-status').length
    await vi.advanceTimersByTimeAsync(15000)
    expect(calls.filter((c) => c.path === '/api/users/7/verification-status').length).toBe(polls)
  })
})
