import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mockApi, screenCalls } from '@/testing/mock-api'
import { renderRoute, renderRouteWithUser } from '@/testing/render-route'

function pendingSignIn() {
  localStorage.setItem('pendingUserId', '5')
  localStorage.setItem('loginEmail', 'ana@example.com')
  localStorage.setItem('loginPhone', '')
}

describe('/verify-code', () => {
  it('redirects to /login without a pending user', async () => {
    const { router } = renderRoute('/verify-code')
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
  })

  it('accepts digits only and enables the button at 6 digits', async () => {
    pendingSignIn()
    const { user } = renderRouteWithUser('/verify-code')
    const input = await screen.findByLabelText('Código de verificación')
    const button = screen.getByRole('button', { name: 'Verificar Código' })
    expect(screen.getByText('Por favor ingresa el código de 6 dígitos')).toBeInTheDocument()
    expect(button).toBeDisabled()
    await user.type(input, '12a3b45')
    expect(input).toHaveValue('12345')
    expect(button).toBeDisabled()
    await user.type(input, '67')
    expect(input).toHaveValue('123456')
    expect(button).toBeEnabled()
    expect(screen.queryByText('Por favor ingresa el código de 6 dígitos')).not.toBeInTheDocument()
  })

  it('sends the user back to /login when the sign-in keys are gone', async () => {
    localStorage.setItem('pendingUserId', '5')
    const { calls } = mockApi({})
    const { user, router } = renderRouteWithUser('/verify-code')
    await user.type(await screen.findByLabelText('Código de verificación'), '123456')
    await user.click(screen.getByRole('button', { name: 'Verificar Código' }))
    expect(await screen.findByText('Sesión expirada. Por favor inicia sesión nuevamente.')).toBeInTheDocument()
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(screenCalls(calls)).toHaveLength(0)
  })

  it('signs in: stores userId, clears the pending keys and goes to /profile', async () => {
    pendingSignIn()
    const { calls } = mockApi({ 'POST /api/verify-code': { json: { userId: 5 } } })
    const { user, router } = renderRouteWithUser('/verify-code')
    await user.type(await screen.findByLabelText('Código de verificación'), '123456')
    await user.click(screen.getByRole('button', { name: 'Verificar Código' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'))
    expect(await screen.findByText('Entraste a tu Perfil Seguro.')).toBeInTheDocument()
    expect(screen.queryByText(/Tu identidad ha sido verificada/)).not.toBeInTheDocument()
    expect(screenCalls(calls)[0].body).toEqual({ userId: 5, code: '123456' })
    expect(localStorage.getItem('userId')).toBe('5')
    for (const key of ['pendingUserId', 'loginEmail', 'loginPhone']) expect(localStorage.getItem(key)).toBeNull()
  })

  it('shows the server message or "Código incorrecto"', async () => {
    pendingSignIn()
    mockApi({ 'POST /api/verify-code': { status: 400, text: '' } })
    const { user } = renderRouteWithUser('/verify-code')
    await user.type(await screen.findByLabelText('Código de verificación'), '000000')
    await user.click(screen.getByRole('button', { name: 'Verificar Código' }))
    expect(await screen.findByText('Código incorrecto')).toBeInTheDocument()
    expect(localStorage.getItem('userId')).toBeNull()
    expect(screen.getByRole('link', { name: /Volver a iniciar sesión/ })).toHaveAttribute('href', '/login')
  })
})
