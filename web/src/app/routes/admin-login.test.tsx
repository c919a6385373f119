import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'

vi.setConfig({ testTimeout: 30_000 })
import { mockApi, refusal, screenCalls } from '@/testing/mock-api'
import { renderRouteWithUser } from '@/testing/render-route'

describe('/admin-login', () => {
  it('keeps Acceder disabled while the password is blank and toggles its visibility', async () => {
    mockApi({})
    const { user } = renderRouteWithUser('/admin-login')
    const button = await screen.findByRole('button', { name: 'Acceder' })
    expect(button).toBeDisabled()
    const input = screen.getByLabelText('Contraseña')
    await user.type(input, '   ')
    expect(button).toBeDisabled()
    await user.type(input, 'x')
    expect(button).toBeEnabled()
    expect(input).toHaveAttribute('type', 'password')
    await user.click(screen.getByRole('button', { name: 'Mostrar contraseña' }))
    expect(input).toHaveAttribute('type', 'text')
    await user.click(screen.getByRole('button', { name: 'Ocultar contraseña' }))
    expect(input).toHaveAttribute('type', 'password')
  })

  it('stores the two flags and goes to /admin on success', async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((r) => (release = r))
    const { calls } = mockApi({
      'POST /api/admin/login': async () => {
        await gate
        return { json: { success: true, authenticated: true } }
      },
      'GET /api/users': { json: [] },
      'GET /api/admin/partners': { json: [] },
    })
    const { user, router } = renderRouteWithUser('/admin-login')
    await user.type(await screen.findByLabelText('Contraseña'), 'admin-dev-only')
    await user.click(screen.getByRole('button', { name: 'Acceder' }))
    expect(await screen.findByRole('button', { name: /Verificando\.\.\./ })).toBeDisabled()
    release()
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'))
    expect(screenCalls(calls)[0].body).toEqual({ password: 'admin-dev-only' })
    expect(localStorage.getItem('adminAuthenticated')).toBe('true')
    expect(Number(localStorage.getItem('adminLoginTime'))).toBeGreaterThan(Date.now() - 5000)
    expect(await screen.findByRole('heading', { name: 'Panel de Administración' }, { timeout: 5000 })).toBeInTheDocument()
  })

  it('shows the server message in a red alert, or Contraseña incorrecta', async () => {
    let reply = refusal(429, 'Demasiados intentos fallidos. Intenta nuevamente en 15 minutos.') as {
      status: number
      json?: unknown
      text?: string
    }
    mockApi({ 'POST /api/admin/login': () => reply })
    const { user } = renderRouteWithUser('/admin-login')
    await user.type(await screen.findByLabelText('Contraseña'), 'nope')
    await user.click(screen.getByRole('button', { name: 'Acceder' }))
    expect(await screen.findByTestId('admin-login-error')).toHaveTextContent('Demasiados intentos fallidos. Intenta nuevamente en 15 minutos.')
    expect(screen.getByTestId('admin-login-error')).toHaveClass('alert-error')
    reply = { status: 401, text: '' }
    await user.click(screen.getByRole('button', { name: 'Acceder' }))
    await waitFor(() => expect(screen.getByTestId('admin-login-error')).toHaveTextContent('Contraseña incorrecta'))
    expect(localStorage.getItem('adminAuthenticated')).toBeNull()
  })
})
