import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { fillAndSubmit } from '@/testing/fill-form'
import { renderRouteWithUser } from '@/testing/render-route'
import { adminSession, signInAdmin } from '@/testing/admin'

vi.setConfig({ testTimeout: 30_000 })

const partner = {
  id: 3,
  keyId: 'pk_live_0123456789abcdef01234567',
  partnerName: 'CasaLista',
  domain: 'https://www.casalista.mx',
  isActive: true,
  permissions: ['widget_auth'],
  requestsCount: 0,
  lastUsedAt: null,
  createdAt: '2026-11-01T00:00:00Z',
  createdBy: null,
  notes: null,
}

describe('/admin › Socios: the console', () => {
  it('invites a partner’s first propietario and shows the enrolment link once', async () => {
    signInAdmin()
    const { calls } = mockApi({
      'GET /api/admin/session': adminSession('administrador'),
      'GET /api/users': { json: [] },
      'GET /api/admin/partners': { json: [partner] },
      'POST /api/admin/partners/3/users': {
        status: 201,
        json: {
          user: { id: 9, email: 'laura@casalista.mx', name: 'Laura Ríos', role: 'propietario' },
          enrolmentUrl: 'http://localhost:8080/socios/registro?token=' + 'c'.repeat(64),
          expiresAt: '2026-12-01T00:00:00Z',
          message: 'Comparte este enlace solo con Laura Ríos.',
        },
      },
    })
    const { user } = renderRouteWithUser('/admin')
    await user.click(await screen.findByRole('button', { name: 'Invitar a la consola de CasaLista' }))
    await fillAndSubmit(user, { Correo: 'laura@casalista.mx', Nombre: 'Laura Ríos' }, 'Invitar')
    const link = await screen.findByTestId('partner-user-link')
    expect(link).toHaveTextContent('/socios/registro?token=cccc')
    expect(link).toHaveTextContent('Funciona una vez, durante 7 días')
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/api/admin/partners/3/users')?.body).toEqual({
        email: 'laura@casalista.mx',
        name: 'Laura Ríos',
        role: 'propietario',
      }),
    )
  })
})
