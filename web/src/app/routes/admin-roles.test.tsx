import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { renderRoute } from '@/testing/render-route'
import { adminSession, signInAdmin } from '@/testing/admin'
import { expectTextContents } from '@/testing/expect-text'

vi.setConfig({ testTimeout: 30_000 })

const users = [{ id: 1, nombre: 'Ana López', email: 'ana@casalista.mx', origen: 'CasaLista', vigencia: 1, id_validado: 'PS-1111-2222-33', fecha_validacion: '2026-01-01T00:00:00Z' }]

const payments = {
  json: {
    payments: [{ id: 9, status: 'paid', amount: 29900, method: 'card', plan: 'anual', createdAt: '2026-01-02T00:00:00Z', refundable: true, provider: 'stripe' }],
  },
}

describe('/admin by role', () => {
  it('soporte sees users and ARCO, but no edit, delete, revoke, partners, Bitácora or monitoring', async () => {
    signInAdmin()
    mockApi({
      'GET /api/admin/session': adminSession('soporte'),
      'GET /api/users': { json: users },
      'GET /api/admin/users/1/lifecycle': { json: { events: [] } },
      'GET /api/admin/users/1/payments': payments,
    })
    renderRoute('/admin')
    expect(await screen.findByTestId('admin-identity')).toHaveTextContent('Prueba soporte · soporte@perfilseguro.mx · Soporte')
    await screen.findByText('Ana López')
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Usuarios', 'Ver Usuario', 'Revisión de identidad', 'Solicitudes ARCO', 'Umbrales LFPIORPI'])
    expect(screen.queryByRole('button', { name: 'Editar Ana López' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Eliminar Ana López' })).not.toBeInTheDocument()
    expect(screen.queryByText('Socios de integración')).not.toBeInTheDocument()
    expect(screen.queryByText('Monitoreo de tareas')).not.toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Validación de Ana López' }))
    await screen.findByText('Sin cambios desde la validación.')
    expect(screen.queryByRole('button', { name: 'Revocar validación' })).not.toBeInTheDocument()
    // Without the revoke form the dialog still has its way out.
    await userEvent.click(screen.getByText('Cerrar', { selector: 'button' })) // the visible button, not the backdrop's
    await waitFor(() => expect(screen.queryByText('Sin cambios desde la validación.')).not.toBeInTheDocument())
  })

  it('finanzas reads a user and refunds, without the user form', async () => {
    signInAdmin()
    mockApi({
      'GET /api/admin/session': adminSession('finanzas'),
      'GET /api/users': { json: users },
      'GET /api/admin/users/1/payments': payments,
    })
    renderRoute('/admin')
    await screen.findByText('Ana López')
    await waitFor(() => expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Usuarios', 'Ver Usuario', 'Umbrales LFPIORPI']))
    await userEvent.click(screen.getByRole('button', { name: 'Ver Ana López' }))
    const row = await screen.findByTestId('admin-payment-row')
    expect(within(row).getByRole('button', { name: 'Reembolsar' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Guardar|Actualizar/ })).not.toBeInTheDocument()
  })

  it('administrador gets Bitácora with filters, paging and the CSV link', async () => {
    signInAdmin()
    const { calls } = mockApi({
      'GET /api/admin/session': adminSession('administrador'),
      'GET /api/users': { json: users },
      'GET /api/admin/partners': { json: [] },
      'GET /api/admin/audit': {
        json: {
          total: 51,
          page: 1,
          pageSize: 50,
          events: [
            {
              id: 1,
              at: '2026-05-01T15:00:00Z',
              actorKind: 'admin',
              actorId: 7,
              actorLabel: 'administrador@perfilseguro.mx',
              action: 'user.revoke',
              targetKind: 'user',
              targetId: '1',
              ip: '203.0.113.9',
              userAgent: 'Prueba',
              outcome: 'ok',
              changes: { motivo: { after: 'Fraude' } },
              actionLabel: 'Revocación de la validación',
              targetText: 'Perfil PS-1234-5678-90',
            },
          ],
        },
      },
    })
    renderRoute('/admin')
    await userEvent.click(await screen.findByRole('tab', { name: 'Bitácora' }))
    const row = await screen.findByTestId('audit-row')
    expectTextContents(row, ['administrador@perfilseguro.mx', 'Revocación de la validación', 'user.revoke', 'Perfil PS-1234-5678-90'])
    expect(row).not.toHaveTextContent('user 1')
    expect(row).toHaveTextContent('motivo: Fraude')
    expect(row).toHaveTextContent('203.0.113.9')
    expect(screen.getByText('51 eventos · página 1 de 2')).toBeInTheDocument()

    await userEvent.type(screen.getByLabelText('Acción'), 'user.revoke')
    await userEvent.click(screen.getByRole('button', { name: 'Filtrar' }))
    await waitFor(() => expect(calls.some((c) => c.path === '/api/admin/audit' && c.url.search.includes('action=user.revoke'))).toBe(true))
    expect(screen.getByRole('link', { name: 'Exportar CSV' })).toHaveAttribute('href', '/api/admin/audit?action=user.revoke&format=csv')
  })
})
