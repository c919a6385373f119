import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { mockApi, type MockHandler } from '@/testing/mock-api'
import { renderRoute, renderRouteWithUser } from '@/testing/render-route'

const invitations = [
  {
    id: 2,
    inviterId: 7,
    inviteeEmail: 'carlos@example.com',
    inviteeName: 'Carlos Ruiz',
    invitationCode: 'ABCDEFGHJKMN',
    type: 'broker',
    status: 'pending',
    companyName: 'Inmobiliaria Sol',
    expiresAt: '2031-01-08T12:00:00Z',
    createdAt: '2031-01-01T12:00:00Z',
    uniqueLink: 'http://localhost:8080/accept-invitation?token=' + 'a'.repeat(64),
  },
  {
    id: 1,
    inviterId: 7,
    inviteeEmail: 'diana@example.com',
    inviteeName: 'Diana Pérez',
    invitationCode: 'PQRSTUVWXYZ2',
    type: 'client',
    status: 'accepted',
    expiresAt: '2031-01-08T12:00:00Z',
    acceptedAt: '2031-01-02T12:00:00Z',
    createdAt: '2030-12-31T12:00:00Z',
    uniqueLink: 'http://localhost:8080/accept-invitation?token=' + 'b'.repeat(64),
  },
]

function verifiedApi(extra: Record<string, MockHandler> = {}) {
  localStorage.setItem('userId', '7')
  return mockApi({
    'GET /api/users/7/verification-status': { json: { verificationLevel: 3, biometricVerified: true } },
    'GET /api/auth/status': { json: { authenticated: true } },
    'GET /api/users/7/invitations': { json: invitations },
    ...extra,
  })
}

// Generous timeouts: the suite runs on a shared, busy machine.
describe('/invitations', { timeout: 20_000 }, () => {
  it('sends users without biometric verification to /profile with the Acceso restringido toast', async () => {
    localStorage.setItem('userId', '7')
    mockApi({ 'GET /api/users/7/verification-status': { json: { verificationLevel: 2, biometricVerified: false } } })
    const { router } = renderRoute('/invitations')
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'))
    expect(await screen.findByText('Acceso restringido')).toBeInTheDocument()
  })

  it('shows the send form with the spec messages and the phone input rule', async () => {
    const { calls } = verifiedApi()
    const { user } = renderRouteWithUser('/invitations')
    expect(await screen.findByRole('heading', { name: 'Invitaciones' }, { timeout: 5000 })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Enviar invitación' }))
    expect(await screen.findByText('Nombre del invitado requerido')).toBeInTheDocument()
    expect(screen.getByText('Email válido requerido')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0)

    const phone = screen.getByLabelText('Teléfono (opcional)')
    await user.type(phone, '55-12ab 34 5678 999')
    expect(phone).toHaveValue('5512 34 5678 ')

    await user.clear(screen.getByLabelText('Vigencia (días)'))
    await user.type(screen.getByLabelText('Vigencia (días)'), '31')
    await user.click(screen.getByRole('button', { name: 'Enviar invitación' }))
    expect(await screen.findByText('La vigencia debe ser de 1 a 30 días')).toBeInTheDocument()
  })

  it('sends an invitation with the inviter and the phone digits, then shows the links', async () => {
    const { calls } = verifiedApi({ 'POST /api/invitations': { status: 201, json: { success: true, invitation: invitations[0] } } })
    const { user } = renderRouteWithUser('/invitations')
    await user.type(await screen.findByLabelText('Nombre del invitado'), 'Carlos Ruiz')
    await user.type(screen.getByLabelText('Correo electrónico'), 'carlos@example.com')
    await user.type(screen.getByLabelText('Teléfono (opcional)'), '55 1234 5678')
    await user.selectOptions(screen.getByLabelText('Tipo de invitación'), 'broker')
    await user.type(screen.getByLabelText('Mensaje personal (opcional)'), 'Te espero')
    await user.click(screen.getByRole('button', { name: 'Enviar invitación' }))

    expect(await screen.findByText('Invitación enviada')).toBeInTheDocument()
    const post = calls.find((c) => c.method === 'POST' && c.path === '/api/invitations')!
    expect(post.body).toEqual({
      inviterId: 7,
      inviteeName: 'Carlos Ruiz',
      inviteeEmail: 'carlos@example.com',
      inviteePhone: '5512345678',
      type: 'broker',
      personalMessage: 'Te espero',
      expiresInDays: 7,
    })
    expect(await screen.findByRole('tab', { name: 'Links únicos', selected: true })).toBeInTheDocument()
  })

  it('shows the server message when sending fails', async () => {
    verifiedApi({ 'POST /api/invitations': { status: 400, json: { message: 'Email válido requerido', error: 'Email válido requerido' } } })
    const { user } = renderRouteWithUser('/invitations')
    await user.type(await screen.findByLabelText('Nombre del invitado'), 'Carlos')
    await user.type(screen.getByLabelText('Correo electrónico'), 'carlos@example.com')
    await user.click(screen.getByRole('button', { name: 'Enviar invitación' }))
    expect(await screen.findByTestId('toast')).toHaveTextContent('Email válido requerido')
  })

  it('lists invitations with their status; pending ones can be cancelled, regenerating is coming soon', async () => {
    const { calls } = verifiedApi({ 'DELETE /api/invitations/2': { json: { success: true } } })
    const { user } = renderRouteWithUser('/invitations')
    await user.click(await screen.findByRole('tab', { name: 'Gestionar' }))
    const rows = await screen.findAllByTestId('invitation-row')
    expect(rows).toHaveLength(2)
    expect(within(rows[0]).getByTestId('invitation-status')).toHaveTextContent('Pendiente')
    expect(within(rows[1]).getByTestId('invitation-status')).toHaveTextContent('Aceptada')
    expect(within(rows[1]).queryByRole('button', { name: 'Cancelar' })).not.toBeInTheDocument()

    await user.click(within(rows[0]).getByRole('button', { name: 'Regenerar link' }))
    expect(await screen.findByText('Próximamente')).toBeInTheDocument()

    await user.click(within(rows[0]).getByRole('button', { name: 'Cancelar' }))
    expect(await screen.findByText('Invitación cancelada')).toBeInTheDocument()
    const del = calls.find((c) => c.method === 'DELETE')!
    expect(del.path).toBe('/api/invitations/2')
    expect(del.body).toEqual({ inviterId: 7 })
    expect(calls.filter((c) => c.method === 'GET' && c.path === '/api/users/7/invitations').length).toBeGreaterThan(1)
  })

  it('shows the list error', async () => {
    verifiedApi({ 'GET /api/users/7/invitations': { status: 500, text: '' } })
    const { user } = renderRouteWithUser('/invitations')
    await user.click(await screen.findByRole('tab', { name: 'Gestionar' }))
    expect(await screen.findByText('Error al obtener invitaciones')).toBeInTheDocument()
  })

  it('copies a pending link with 2 s of feedback, and says when copying fails', async () => {
    verifiedApi()
    const { user } = renderRouteWithUser('/invitations')
    await user.click(await screen.findByRole('tab', { name: 'Links únicos' }))
    const cards = await screen.findAllByTestId('invitation-link')
    expect(cards).toHaveLength(1) // only the pending one
    await user.click(within(cards[0]).getByRole('button', { name: 'Copiar link' }))
    expect(await navigator.clipboard.readText()).toBe(invitations[0].uniqueLink)
    expect(within(cards[0]).getByRole('button', { name: 'Link copiado' })).toHaveTextContent('Copiado')
    await waitFor(() => expect(within(cards[0]).getByRole('button', { name: 'Copiar link' })).toBeInTheDocument(), { timeout: 3000 })

    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'))
    await user.click(within(cards[0]).getByRole('button', { name: 'Copiar link' }))
    const toast = await screen.findByTestId('toast')
    expect(toast).toHaveTextContent('Error al copiar')
    expect(toast).toHaveTextContent('No se pudo copiar al portapapeles')
  })
})
