import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mockApi, screenCalls } from '@/testing/mock-api'
import { renderRouteWithUser } from '@/testing/render-route'

describe('/login', () => {
  it('requires an e-mail or a phone, with the message on the e-mail field', async () => {
    const { calls } = mockApi({})
    const { user } = renderRouteWithUser('/login')
    await user.click(await screen.findByRole('button', { name: 'Enviar código' }))
    expect(await screen.findByText('Debes proporcionar email o número de teléfono')).toBeInTheDocument()
    expect(screen.getByLabelText('Correo electrónico (opcional)')).toHaveAttribute('aria-invalid', 'true')
    expect(screenCalls(calls)).toHaveLength(0)
  })

  it('rejects a malformed e-mail', async () => {
    mockApi({})
    const { user } = renderRouteWithUser('/login')
    await user.type(await screen.findByLabelText('Correo electrónico (opcional)'), 'ana@')
    await user.click(screen.getByRole('button', { name: 'Enviar código' }))
    expect(await screen.findByText('Correo electrónico no válido')).toBeInTheDocument()
  })

  it('sends only the trimmed e-mail, stores the pending keys and goes to /verify-code', async () => {
    const { calls } = mockApi({ 'POST /api/login': { json: { success: true, userId: 5, message: 'ok' } } })
    const { user, router } = renderRouteWithUser('/login')
    expect(screen.getByRole('link', { name: 'Regístrate aquí' })).toHaveAttribute('href', '/register')
    await user.type(await screen.findByLabelText('Correo electrónico (opcional)'), '  ana@example.com ')
    await user.click(screen.getByRole('button', { name: 'Enviar código' }))

    expect(await screen.findByRole('button', { name: /Enviando código/ })).toBeDisabled()
    expect(screenCalls(calls)[0].body).toEqual({ email: 'ana@example.com' })
    expect(localStorage.getItem('pendingUserId')).toBe('5')
    expect(localStorage.getItem('loginEmail')).toBe('ana@example.com')
    expect(localStorage.getItem('loginPhone')).toBe('')
    expect(screen.getByText('Código enviado')).toBeInTheDocument()
    expect(screen.getByText('Código de verificación enviado a tu correo electrónico')).toBeInTheDocument()
    expect(screen.queryByText('Código de verificación enviado por WhatsApp')).not.toBeInTheDocument()
    await waitFor(() => expect(router.state.location.pathname).toBe('/verify-code'), { timeout: 3000 })
  })

  it('sends the phone in international format with the Mexican code by default', async () => {
    const { calls } = mockApi({ 'POST /api/login': { json: { success: true, userId: 5 } } })
    const { user } = renderRouteWithUser('/login')
    await user.type(await screen.findByLabelText('Teléfono WhatsApp'), '5512345678')
    await user.click(screen.getByRole('button', { name: 'Enviar código' }))
    await waitFor(() => expect(screenCalls(calls)).toHaveLength(1))
    expect(screenCalls(calls)[0].body).toEqual({ phoneNumber: '+525512345678' })
    expect(await screen.findByText('Código de verificación enviado por WhatsApp')).toBeInTheDocument()
    expect(localStorage.getItem('loginPhone')).toBe('+525512345678')
    expect(localStorage.getItem('loginEmail')).toBe('')
  })

  it('shows the server message or the fallback on failure', async () => {
    mockApi({ 'POST /api/login': { status: 404, json: { message: 'Usuario no encontrado' } } })
    const { user } = renderRouteWithUser('/login')
    await user.type(await screen.findByLabelText('Correo electrónico (opcional)'), 'ana@example.com')
    await user.click(screen.getByRole('button', { name: 'Enviar código' }))
    expect(await screen.findByText('Usuario no encontrado')).toBeInTheDocument()
    expect(localStorage.getItem('pendingUserId')).toBeNull()
  })

  it('falls back to "Error al iniciar sesión"', async () => {
    mockApi({ 'POST /api/login': { status: 500, text: '' } })
    const { user } = renderRouteWithUser('/login')
    await user.type(await screen.findByLabelText('Correo electrónico (opcional)'), 'ana@example.com')
    await user.click(screen.getByRole('button', { name: 'Enviar código' }))
    expect(await screen.findByText('Error al iniciar sesión')).toBeInTheDocument()
  })
})
