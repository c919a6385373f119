import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { mockApi, refusal } from '@/testing/mock-api'
import { renderRoute, renderRouteWithUser } from '@/testing/render-route'

const invitation = {
  invitationCode: 'ABCDEFGHJKMN',
  inviteeName: 'Carlos Ruiz',
  inviteeEmail: 'carlos@example.com',
  type: 'broker',
  companyName: 'Inmobiliaria Sol',
  personalMessage: 'Te espero',
  inviterName: 'Ana López',
  expiresAt: '2031-01-08T12:00:00Z',
  status: 'pending',
}

const EXPIRED = 'Esta invitación ha expirado. Contacta a quien te invitó para solicitar una nueva.'

// Generous timeouts: the suite runs on a shared, busy machine.
describe('/accept-invitation', { timeout: 20_000 }, () => {
  it('shows the invitation with the name prefilled, accepts it and goes to /profile', async () => {
    const { calls } = mockApi({
      'GET /api/invitations/validate': { json: { success: true, invitation } },
      'POST /api/invitations/accept': {
        json: { success: true, user: { id: 12, name: 'Carlos Ruiz', email: 'carlos@example.com', profileId: 'PS-1234-5678-90' } },
      },
      'GET /api/users/12': { json: { id: 12, nombre: 'Carlos Ruiz', email: 'carlos@example.com', origen: 'invitación', inviterName: 'Ana López', vigencia: 1, id_validado: 'PS-1234-5678-90', verificationLevel: 0, biometricVerified: false } },
      'GET /api/users/12/verification-status': { json: { verificationLevel: 0, biometricVerified: false } },
      'GET /api/auth/status': { json: { authenticated: true } },
    })
    const loggedIn = vi.fn()
    window.addEventListener('userLoggedIn', loggedIn)
    const { user, router } = renderRouteWithUser('/accept-invitation?code=ABCDEFGHJKMN')

    expect(await screen.findByText('Ana López')).toBeInTheDocument()
    expect(screen.getByText('Inmobiliaria Sol')).toBeInTheDocument()
    expect(screen.getByText('Te espero')).toBeInTheDocument()
    expect(screen.getByLabelText('Nombre completo')).toHaveValue('Carlos Ruiz')
    expect(screen.getByRole('link', { name: 'Inicia sesión' })).toHaveAttribute('href', '/login')
    expect(calls[0].url.searchParams.get('code')).toBe('ABCDEFGHJKMN')
    // The legal pages open in a new tab: the half-filled form stays.
    for (const [name, href] of [[/Términos y condiciones/, '/terminos'], [/Aviso de privacidad/, '/privacidad']] as const) {
      const link = within(screen.getByRole('main')).getByRole('link', { name })
      expect(link).toHaveAttribute('href', href)
      expect(link).toHaveAttribute('target', '_blank')
    }

    await user.type(screen.getByLabelText('Teléfono (WhatsApp)'), '55 8765 4321')
    await user.click(screen.getByRole('button', { name: 'Aceptar invitación' }))

    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'))
    const accept = calls.find((c) => c.path === '/api/invitations/accept')!
    expect(accept.body).toEqual({ invitationCode: 'ABCDEFGHJKMN', accepterData: { nombre: 'Carlos Ruiz', phone_number: '5587654321' } })
    expect(localStorage.getItem('userId')).toBe('12')
    expect(JSON.parse(localStorage.getItem('userData')!)).toMatchObject({ id: 12, profileId: 'PS-1234-5678-90' })
    expect(loggedIn).toHaveBeenCalled()
    window.removeEventListener('userLoggedIn', loggedIn)
  })

  it('validates nombre and phone_number with the spec messages', async () => {
    const { calls } = mockApi({ 'GET /api/invitations/validate-token': { json: { success: true, invitation } } })
    const { user } = renderRouteWithUser('/accept-invitation?token=' + 'a'.repeat(64))
    const name = await screen.findByLabelText('Nombre completo')
    expect(calls[0].url.searchParams.get('token')).toBe('a'.repeat(64))
    await user.clear(name)
    await user.type(name, 'C')
    await user.type(screen.getByLabelText('Teléfono (WhatsApp)'), '55 87')
    await user.click(screen.getByRole('button', { name: 'Aceptar invitación' }))
    expect(await screen.findByText('Nombre requerido')).toBeInTheDocument()
    expect(screen.getByText('Teléfono requerido')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0)
  })

  it('shows the expired message', async () => {
    mockApi({
      'GET /api/invitations/validate-token': { status: 410, json: { message: EXPIRED, status: 'expired', invitation: { ...invitation, status: 'expired' } } },
    })
    renderRoute('/accept-invitation?token=' + 'a'.repeat(64))
    expect(await screen.findByText(EXPIRED)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Aceptar invitación' })).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Inicia sesión' })).toBeInTheDocument()
  })

  it('shows the expired message when the invitation expires before it is accepted', async () => {
    mockApi({
      'GET /api/invitations/validate': { json: { success: true, invitation } },
      'POST /api/invitations/accept': { status: 410, json: { message: EXPIRED } },
    })
    const { user } = renderRouteWithUser('/accept-invitation?code=ABCDEFGHJKMN')
    await user.type(await screen.findByLabelText('Teléfono (WhatsApp)'), '5587654321')
    await user.click(screen.getByRole('button', { name: 'Aceptar invitación' }))
    expect(await screen.findByText(EXPIRED)).toBeInTheDocument()
  })

  it('shows the server message for an invalid code or link, and for a missing one', async () => {
    mockApi({ 'GET /api/invitations/validate': refusal(404, 'Código de invitación inválido') })
    renderRoute('/accept-invitation?code=ZZZZZZZZ')
    expect(await screen.findByText('Código de invitación inválido')).toBeInTheDocument()
  })

  it('says the link is invalid when it was already used', async () => {
    mockApi({ 'GET /api/invitations/validate-token': refusal(404, 'Link de invitación no válido o expirado') })
    renderRoute('/accept-invitation?token=used')
    expect(await screen.findByText('Link de invitación no válido o expirado')).toBeInTheDocument()
  })

  it('shows an error for an acceptance refused by the server', async () => {
    mockApi({
      'GET /api/invitations/validate': { json: { success: true, invitation } },
      'POST /api/invitations/accept': refusal(409, 'El correo electrónico o el número de teléfono ya está registrado.'),
    })
    const { user } = renderRouteWithUser('/accept-invitation?code=ABCDEFGHJKMN')
    await user.type(await screen.findByLabelText('Teléfono (WhatsApp)'), '5587654321')
    await user.click(screen.getByRole('button', { name: 'Aceptar invitación' }))
    expect(await screen.findByTestId('toast')).toHaveTextContent('El correo electrónico o el número de teléfono ya está registrado.')
  })
})
