import { screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { renderRoute } from '@/testing/render-route'

describe('/return', () => {
  afterEach(() => vi.useRealTimers())

  it('stores the userId and goes to /profile after 2 seconds', async () => {
    mockApi({})
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const loggedIn = vi.fn()
    window.addEventListener('userLoggedIn', loggedIn)
    const { router } = renderRoute('/return?userId=42&status=Approved&verificationSessionId=abc')
    expect(await screen.findByRole('heading', { name: 'Verificación recibida' })).toBeInTheDocument()
    // An approved check certifies nothing until its ID matched (issue 52): no 'validada' yet.
    expect(screen.getByText(/comparando los datos de tu identificación/)).toBeInTheDocument()
    expect(screen.queryByText(/fue validada/)).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Continuar a mi perfil' })).toHaveAttribute('href', '/profile')
    expect(localStorage.getItem('userId')).toBe('42')
    expect(loggedIn).toHaveBeenCalled()

    await vi.advanceTimersByTimeAsync(1900)
    expect(router.state.location.pathname).toBe('/return')
    await vi.advanceTimersByTimeAsync(200)
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'))
    window.removeEventListener('userLoggedIn', loggedIn)
  })

  it('explains a declined result and stays without a userId', async () => {
    mockApi({})
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const { router } = renderRoute('/return?status=Declined')
    expect(await screen.findByRole('heading', { name: 'No pudimos validar tu identidad' })).toBeInTheDocument()
    await vi.advanceTimersByTimeAsync(3000)
    expect(router.state.location.pathname).toBe('/return')
    expect(localStorage.getItem('userId')).toBeNull()
  })
})
