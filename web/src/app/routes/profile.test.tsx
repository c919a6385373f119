import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { expectRedirectWhenSignedOut, renderRoute } from '@/testing/render-route'
import { baseProfileUser, profileRoutes } from '@/testing/profile-user'

const baseUser = baseProfileUser

function api(user = baseUser, status: Record<string, unknown> = {}) {
  return mockApi({
    ...profileRoutes(user, status),
    'POST /api/logout': { json: { success: true } },
    'POST /api/send-email-verification-link': { json: { success: true, email: 'ana@example.com' } },
  })
}

describe('/profile', () => {
  it('redirects to /register with no stored id and no query', async () => {
    await expectRedirectWhenSignedOut('/profile', '/register')
  })

  it('says the phone and the e-mail are verified once both are, not only the phone', async () => {
    localStorage.setItem('userId', '7')
    api({ ...baseUser, verificationLevel: 2, isEmailVerified: true } as typeof baseUser)
    renderRoute('/profile')
    expect(await screen.findByText(/Tu teléfono y tu correo ya están verificados/)).toBeInTheDocument()
    expect(screen.queryByText(/Tu teléfono ya está verificado/)).not.toBeInTheDocument()
  })

  it('shows the in-progress profile with the completion button and the e-mail card', async () => {
    localStorage.setItem('userId', '7')
    api()
    renderRoute('/profile')
    expect(await screen.findByRole('heading', { name: 'Mi Perfil', level: 1 })).toBeInTheDocument()
    expect(screen.getByTestId('verification-badge')).toHaveTextContent('Verificación en proceso')
    expect(screen.getByText(/Tu teléfono ya está verificado\. Verifica tu correo/)).toBeInTheDocument()
    // The start button waits for the consents (the biometric check needs the express consent first).
    expect(await screen.findByRole('button', { name: 'Completar Verificación' })).toBeInTheDocument()
    expect(screen.getByTestId('digital-id-card')).toHaveTextContent('Pendiente de validación')
    expect(screen.getByRole('link', { name: 'soporte@perfilseguro.mx' })).toHaveAttribute('href', 'mailto:soporte@perfilseguro.mx')
    const emailCard = screen.getByTestId('email-verification-card')
    await userEvent.click(within(emailCard).getByRole('button', { name: /Enviar enlace/ }))
    expect(await within(emailCard).findByText('Enlace enviado')).toBeInTheDocument()
    await userEvent.click(within(emailCard).getByRole('button', { name: /Reenviar enlace/ }))
    expect(within(emailCard).getByRole('button', { name: /Enviar enlace/ })).toBeInTheDocument()
  })

  it("says a partner's test account is not a real profile", async () => {
    localStorage.setItem('userId', '7')
    api({ ...baseUser, testAccount: true } as typeof baseUser)
    renderRoute('/profile')
    expect(await screen.findByTestId('test-account')).toHaveTextContent('no es tu perfil real')
    expect(screen.getByTestId('test-account')).toHaveTextContent('se borra 30 días después de crearse')
    expect(screen.getByTestId('test-account-no-wallet')).toHaveTextContent('no reciben pases de Apple Wallet')
    expect(screen.queryByRole('button', { name: /Apple Wallet/ })).not.toBeInTheDocument()
  })

  it('shows no test-account notice to a live person', async () => {
    localStorage.setItem('userId', '7')
    api()
    renderRoute('/profile')
    expect(await screen.findByRole('heading', { name: 'Mi Perfil', level: 1 })).toBeInTheDocument()
    expect(screen.queryByTestId('test-account')).not.toBeInTheDocument()
  })

  it('shows "Documento Rechazado" when the provider declined the document', async () => {
    localStorage.setItem('userId', '7')
    api(baseUser, { lastBiometricStatus: 'Declined' })
    renderRoute('/profile')
    expect(await screen.findByText('Documento Rechazado')).toBeInTheDocument()
  })

  it('shows the complete state without the completion button', async () => {
    localStorage.setItem('userId', '7')
    api({ ...baseUser, verificationLevel: 3, biometricVerified: true, fecha_validacion: '2026-01-15T12:00:00Z' })
    renderRoute('/profile')
    expect(await screen.findByTestId('verification-badge')).toHaveTextContent('Verificación completa')
    expect(screen.queryByRole('button', { name: 'Completar Verificación' })).not.toBeInTheDocument()
    expect(screen.getByText('Email Verificado')).toBeInTheDocument()
    expect(screen.getByTestId('digital-id-card')).toHaveTextContent(
      `Validado hasta: ${new Date('2027-01-15T12:00:00Z').toLocaleDateString('es-MX')}`,
    )
  })

  it('says level 1 is required before the e-mail step', async () => {
    localStorage.setItem('userId', '7')
    api({ ...baseUser, verificationLevel: 0 })
    renderRoute('/profile')
    expect(await screen.findByText('Requiere Nivel 1')).toBeInTheDocument()
    expect(screen.getByTestId('verification-badge')).toHaveTextContent('Pendiente de verificación')
  })

  it('on 401 clears the stored user and goes to /login', async () => {
    localStorage.setItem('userId', '7')
    mockApi({ 'GET /api/users/7': { status: 401, text: '' }, 'GET /api/auth/status': { status: 401, text: '' } })
    const { router } = renderRoute('/profile')
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(localStorage.getItem('userId')).toBeNull()
  })

  it('shows the load-error alert on a server error', async () => {
    localStorage.setItem('userId', '7')
    mockApi({ 'GET /api/users/7': { status: 500, text: '' } })
    renderRoute('/profile')
    expect(
      await screen.findByText('No pudimos cargar tu perfil. Por favor, intenta nuevamente más tarde o contacta a soporte.'),
    ).toBeInTheDocument()
  })

  it('looks a PS- id up by profileId and redirects expired results to /register', async () => {
    const { calls } = mockApi({ 'GET /api/users/search': { json: { id: 7, expired: true } } })
    const { router } = renderRoute('/profile?userId=PS-1111-2222-33')
    await waitFor(() => expect(router.state.location.pathname).toBe('/register'))
    expect(calls.find((c) => c.path === '/api/users/search')!.url.searchParams.get('profileId')).toBe('PS-1111-2222-33')
  })

  it('shows the not-found alert when the lookup answers 401', async () => {
    mockApi({ 'GET /api/users/search': { status: 401, text: '' } })
    renderRoute('/profile?email=nadie@example.com')
    expect(await screen.findByText('Perfil no encontrado')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Ir al registro' })).toHaveAttribute('href', '/register')
  })

  it('logs out: clears the stored user even when the call fails and goes home', async () => {
    localStorage.setItem('userId', '7')
    localStorage.setItem('userData', '{}')
    const { calls } = mockApi({
      'GET /api/users/7': { json: baseUser },
      'GET /api/users/7/verification-status': { json: {} },
      'GET /api/auth/status': { json: {} },
      'POST /api/logout': { status: 500, text: '' },
    })
    const { router } = renderRoute('/profile')
    await userEvent.click(await screen.findByRole('button', { name: /Cerrar sesión/ }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/logout')).toBe(true)
    expect(localStorage.getItem('userId')).toBeNull()
    expect(localStorage.getItem('userData')).toBeNull()
  })

  it('starts verification in a window opened first, then polls until verified', async () => {
    localStorage.setItem('userId', '7')
    let level = 1
    mockApi({
      'GET /api/users/7': () => ({ json: { ...baseUser, verificationLevel: level, biometricVerified: level >= 3 } }),
      'GET /api/users/7/verification-status': () => ({ json: { verificationLevel: level, biometricVerified: level >= 3 } }),
      'GET /api/auth/status': { json: {} },
      'POST /api/start-verification': { json: { verificationUrl: 'http://localhost/provider' } },
    })
    const popup = { location: { href: '' }, close: vi.fn() }
    const open = vi.fn(() => popup)
    vi.stubGlobal('open', open)
    renderRoute('/profile')
    const button = await screen.findByRole('button', { name: 'Completar Verificación' })

    vi.useFakeTimers({ shouldAdvanceTime: true })
    await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).click(button)
    expect(open).toHaveBeenCalledWith('', '_blank')
    await waitFor(() => expect(popup.location.href).toBe('http://localhost/provider'))
    expect(await screen.findByText('Esperando el resultado de tu verificación')).toBeInTheDocument()

    level = 3
    await vi.advanceTimersByTimeAsync(5000)
    expect(await screen.findByText('Verificación exitosa')).toBeInTheDocument()
    await waitFor(() => expect(screen.getByTestId('verification-badge')).toHaveTextContent('Verificación completa'))
  })

  it('reports a start-verification failure with the server error', async () => {
    localStorage.setItem('userId', '7')
    mockApi({
      'GET /api/users/7': { json: baseUser },
      'GET /api/users/7/verification-status': { json: {} },
      'GET /api/auth/status': { json: {} },
      'POST /api/start-verification': { status: 502, json: { error: 'Proveedor no disponible' } },
    })
    const popup = { location: { href: '' }, close: vi.fn() }
    vi.stubGlobal('open', vi.fn(() => popup))
    renderRoute('/profile')
    await userEvent.click(await screen.findByRole('button', { name: 'Completar Verificación' }))
    expect(await screen.findByText('Proveedor no disponible')).toBeInTheDocument()
    expect(popup.close).toHaveBeenCalled()
  })
})

describe('/profile validity', () => {
  const DAY = 24 * 60 * 60 * 1000
  const verified = (validUntil: Date, extra: Record<string, unknown> = {}) => ({
    ...baseUser,
    verificationLevel: 3,
    biometricVerified: true,
    fecha_validacion: new Date(validUntil.getTime() - 365 * DAY).toISOString(),
    validUntil: validUntil.toISOString(),
    ...extra,
  })

  it('shows the days left and no renewal far from the end', async () => {
    localStorage.setItem('userId', '7')
    api(verified(new Date(Date.now() + 200 * DAY)) as typeof baseUser)
    renderRoute('/profile')
    const alert = await screen.findByTestId('validity-alert')
    expect(alert).toHaveTextContent(/Vigente hasta el/)
    expect(alert).toHaveTextContent('Quedan 200 días de vigencia.')
    expect(within(alert).queryByRole('button', { name: 'Renovar mi validación' })).not.toBeInTheDocument()
  })

  it('offers the renewal within 30 days of the end and after it', async () => {
    localStorage.setItem('userId', '7')
    api(verified(new Date(Date.now() + 10 * DAY)) as typeof baseUser)
    const { unmount } = renderRoute('/profile')
    expect(await screen.findByTestId('validity-alert')).toHaveTextContent('Quedan 10 días de vigencia.')
    expect(await screen.findByRole('button', { name: 'Renovar mi validación' })).toBeEnabled()
    unmount()

    api(verified(new Date(Date.now() - 3 * DAY), { expiredAt: new Date().toISOString() }) as typeof baseUser)
    renderRoute('/profile')
    const alert = await screen.findByTestId('validity-alert')
    expect(alert).toHaveTextContent('Tu validación expiró')
    expect(await within(alert).findByRole('button', { name: 'Renovar mi validación' })).toBeEnabled()
    expect(screen.getByTestId('card-status')).toHaveTextContent('Expirado')
  })

  it('says Revocado with the reason and offers no renewal', async () => {
    localStorage.setItem('userId', '7')
    api(verified(new Date(Date.now() + 10 * DAY), { revokedAt: new Date().toISOString(), revokedReason: 'Documento robado.' }) as typeof baseUser)
    renderRoute('/profile')
    expect(await screen.findByText('Validación revocada')).toBeInTheDocument()
    expect(screen.getByText(/Motivo: Documento robado\. Si crees/)).toBeInTheDocument()
    expect(screen.queryByText(/robado\.\./)).not.toBeInTheDocument()
    expect(screen.queryByText('Identidad verificada')).not.toBeInTheDocument()
    expect(screen.getByTestId('card-status')).toHaveTextContent('Revocado')
    expect(screen.queryByRole('button', { name: 'Renovar mi validación' })).not.toBeInTheDocument()
  })
})
