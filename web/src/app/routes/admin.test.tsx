import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'

// These tests type a lot; give them room on a busy 2-core machine.
vi.setConfig({ testTimeout: 30_000 })
import { mockApi, refusal, screenCalls, type MockHandler } from '@/testing/mock-api'
import { fillAndSubmit } from '@/testing/fill-form'
import { renderRoute, renderRouteWithUser } from '@/testing/render-route'
import { signInAdmin } from '@/testing/admin'
import { expectTextContents } from '@/testing/expect-text'

const users = [
  { id: 1, nombre: 'Ana López', email: 'ana@casalista.mx', origen: 'CasaLista', vigencia: 1, id_validado: 'PS-1111-2222-33' },
  { id: 2, nombre: 'Beto Ruiz', email: null, origen: 'invitación', inviterName: 'Ana López', vigencia: 5, id_validado: 'PS-4444-5555-66' },
  { id: 3, nombre: 'Carla Gómez', email: 'carla@ventadirecta.mx', origen: 'VentaDirecta', vigencia: 10, id_validado: 'PS-7777-8888-99' },
]

function api(extra: Record<string, MockHandler> = {}) {
  return mockApi({ 'GET /api/users': { json: users }, 'GET /api/admin/partners': { json: [] }, ...extra })
}

describe('/admin guard', () => {
  it('redirects to /admin-login without the flags', async () => {
    const { calls } = api()
    const { router } = renderRoute('/admin')
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin-login'))
    expect(screenCalls(calls)).toHaveLength(0)
  })

  it('clears the flags and redirects after 4 hours', async () => {
    api()
    signInAdmin(4 * 60 * 60 * 1000 + 1000)
    const { router } = renderRoute('/admin')
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin-login'))
    expect(localStorage.getItem('adminAuthenticated')).toBeNull()
    expect(localStorage.getItem('adminLoginTime')).toBeNull()
  })

  it('clears the flags and redirects when the server says 401', async () => {
    api({ 'GET /api/users': refusal(401, 'Inicia sesión como administrador para continuar.') })
    signInAdmin()
    const { router } = renderRoute('/admin')
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin-login'))
    expect(localStorage.getItem('adminAuthenticated')).toBeNull()
  })
})

describe('/admin users table', () => {
  it('shows the columns, N/A, por {inviter}, año/años and the monitoring link', async () => {
    api()
    signInAdmin(60_000)
    renderRoute('/admin')
    expect(await screen.findByRole('heading', { name: 'Panel de Administración' })).toBeInTheDocument()
    for (const name of ['Usuarios', 'Crear Usuario', 'Editar Usuario']) expect(screen.getByRole('tab', { name })).toBeInTheDocument()
    expect(screen.getByRole('tab', { name: 'Editar Usuario' })).toBeDisabled()
    const headers = screen.getAllByRole('columnheader').slice(0, 6).map((h) => h.textContent)
    expect(headers).toEqual(['Nombre', 'Email', 'Origen', 'Vigencia', 'ID Validado', 'Acciones'])
    expect(screen.getAllByRole('columnheader')[5]).toHaveClass('w-[100px]')
    const rows = await screen.findAllByTestId('user-row')
    expect(rows).toHaveLength(3)
    expect(within(rows[0]).getByText('1 año')).toBeInTheDocument()
    expect(within(rows[1]).getByText('N/A')).toBeInTheDocument()
    expect(within(rows[1]).getByText('por Ana López')).toBeInTheDocument()
    expect(within(rows[1]).getByText('5 años')).toBeInTheDocument()
    expect(within(rows[2]).getByText('10 años')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: /Monitoreo de tareas/ })).toHaveAttribute('href', '/admin/monitoring')
  })

  it('filters on the client over nombre, id_validado, email and origen', async () => {
    const { calls } = api()
    signInAdmin()
    const { user } = renderRouteWithUser('/admin')
    await screen.findAllByTestId('user-row')
    const search = screen.getByPlaceholderText('Buscar usuarios...')
    for (const [q, want] of [['ANA', 1], ['ps-7777', 1], ['casalista.mx', 1], ['venta', 1], ['INVIT', 1], ['a', 3], ['zzz', 0]] as const) {
      await user.clear(search)
      await user.type(search, q)
      expect(screen.queryAllByTestId('user-row')).toHaveLength(want)
    }
    expect(screen.getByText('No se encontraron usuarios.')).toBeInTheDocument()
    expect(calls.filter((c) => c.path === '/api/users')).toHaveLength(1)
  })

  it('shows the load error with Reintentar, which refetches', async () => {
    let fail = true
    api({ 'GET /api/users': () => (fail ? { status: 500, text: 'boom' } : { json: users }) })
    signInAdmin()
    const { user } = renderRouteWithUser('/admin')
    expect(await screen.findByText('Error al cargar los usuarios')).toBeInTheDocument()
    fail = false
    await user.click(screen.getByRole('button', { name: 'Reintentar' }))
    expect(await screen.findAllByTestId('user-row')).toHaveLength(3)
  })
})

describe('/admin forms and dialog', () => {
  it('validates, creates with a numeric vigencia, toasts the new ID and returns to the list', async () => {
    const { calls } = api({
      'POST /api/users': { status: 201, json: { ...users[0], id: 9, nombre: 'Nueva Persona', id_validado: 'PS-9999-0000-11' } },
    })
    signInAdmin()
    const { user } = renderRouteWithUser('/admin')
    await user.click(await screen.findByRole('tab', { name: 'Crear Usuario' }))
    expect(screen.getByLabelText('Origen')).toHaveValue('Otro')
    expect(screen.getByLabelText('Vigencia')).toHaveValue('1')
    expect(within(screen.getByLabelText('Vigencia')).getAllByRole('option').map((o) => o.textContent)).toEqual(['1 año', '5 años', '10 años'])
    expect(within(screen.getByLabelText('Origen')).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'CasaLista', 'VentaDirecta', 'Broker', 'Otro',
    ])
    await fillAndSubmit(user, { Nombre: 'Al', Email: 'mal@' }, 'Crear Usuario')
    expect(await screen.findByText('El nombre debe tener al menos 3 caracteres')).toBeInTheDocument()
    expect(screen.getByText('Email inválido')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST')).toBe(false)

    await user.clear(screen.getByLabelText('Nombre'))
    await user.type(screen.getByLabelText('Nombre'), 'Nueva Persona')
    await user.clear(screen.getByLabelText('Email'))
    await user.selectOptions(screen.getByLabelText('Origen'), 'Broker')
    await user.selectOptions(screen.getByLabelText('Vigencia'), '5')
    await user.click(screen.getByRole('button', { name: 'Crear Usuario' }))
    expect(await screen.findByText('Usuario creado')).toBeInTheDocument()
    expect(screen.getByText('ID Validado: PS-9999-0000-11')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ nombre: 'Nueva Persona', email: '', origen: 'Broker', vigencia: 5 })
    expect(screen.getByRole('tab', { name: 'Usuarios' })).toHaveAttribute('aria-selected', 'true')
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET' && c.path === '/api/users')).toHaveLength(2))
  })

  it('edits: loads the user, resets the form, saves and toasts', async () => {
    const { calls } = api({
      'GET /api/users/2': { json: users[1] },
      'PUT /api/users/2': { json: { ...users[1], nombre: 'Beto Ruiz Díaz' } },
    })
    signInAdmin()
    const { user } = renderRouteWithUser('/admin')
    await user.click(await screen.findByRole('button', { name: 'Editar Beto Ruiz' }))
    expect(screen.getByRole('tab', { name: 'Editar Usuario' })).toHaveAttribute('aria-selected', 'true')
    await waitFor(() => expect(screen.getByLabelText('Nombre')).toHaveValue('Beto Ruiz'))
    expect(screen.getByLabelText('Origen')).toHaveValue('invitación')
    expect(screen.getByLabelText('Vigencia')).toHaveValue('5')
    await fillAndSubmit(user, { Nombre: ' Díaz' }, 'Guardar Cambios')
    expect(await screen.findByText('Usuario actualizado')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ nombre: 'Beto Ruiz Díaz', email: '', origen: 'invitación', vigencia: 5 })
    expect(screen.getByRole('tab', { name: 'Usuarios' })).toHaveAttribute('aria-selected', 'true')
  })

  it("asks before a validated person's new name annuls the validation, then sends the confirmation", async () => {
    const annuls =
      'Esta persona tiene su identidad validada: si cambias su nombre, su validación biométrica dejará de ser válida y tendrá que validarse de nuevo. Confírmalo para continuar.'
    const { calls } = api({
      'GET /api/users/2': { json: users[1] },
      'PUT /api/users/2': (body) =>
        (body as { confirmRevalidation?: boolean }).confirmRevalidation
          ? { json: { ...users[1], nombre: 'Beto Ruiz Díaz', verificationLevel: 2 } }
          : { status: 409, json: { message: annuls, errors: { confirmRevalidation: 'Confirma que el cambio de nombre anula la validación.' } } },
    })
    signInAdmin()
    const { user } = renderRouteWithUser('/admin')
    await user.click(await screen.findByRole('button', { name: 'Editar Beto Ruiz' }))
    await waitFor(() => expect(screen.getByLabelText('Nombre')).toHaveValue('Beto Ruiz'))
    await fillAndSubmit(user, { Nombre: ' Díaz' }, 'Guardar Cambios')
    const dialog = await screen.findByRole('alertdialog', { name: '¿Cambiar el nombre de una persona validada?' })
    expect(dialog).toHaveTextContent(annuls)
    await user.click(within(dialog).getByRole('button', { name: 'Sí, cambiar el nombre' }))
    expect(await screen.findByText('Usuario actualizado')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([
      { nombre: 'Beto Ruiz Díaz', email: '', origen: 'invitación', vigencia: 5 },
      { nombre: 'Beto Ruiz Díaz', email: '', origen: 'invitación', vigencia: 5, confirmRevalidation: true },
    ])
  })

  it('shows the save failure as an Error toast with the server text', async () => {
    api({ 'POST /api/users': refusal(409, 'Ya existe un usuario con ese email') })
    signInAdmin()
    const { user } = renderRouteWithUser('/admin')
    await user.click(await screen.findByRole('tab', { name: 'Crear Usuario' }))
    await fillAndSubmit(user, { Nombre: 'Ana Dos' }, 'Crear Usuario')
    const toast = await screen.findByTestId('toast')
    expect(toast).toHaveTextContent('Error')
    expect(toast).toHaveTextContent('Ya existe un usuario con ese email')
    expect(screen.getByRole('tab', { name: 'Crear Usuario' })).toHaveAttribute('aria-selected', 'true')
  })

  it('confirms deletion in the dialog: Cancelar keeps the user, Eliminar deletes and toasts', async () => {
    const { calls } = api({ 'DELETE /api/users/3': { json: { success: true } } })
    signInAdmin()
    const { user } = renderRouteWithUser('/admin')
    await user.click(await screen.findByRole('button', { name: 'Eliminar Carla Gómez' }))
    expect(await screen.findByText('¿Estás seguro?')).toBeVisible()
    expect(
      screen.getByText('Esta acción no se puede deshacer. Se eliminará permanentemente este usuario y su información de validación.'),
    ).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Cancelar' }))
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false)

    await user.click(screen.getByRole('button', { name: 'Eliminar Carla Gómez' }))
    await user.click(screen.getByRole('button', { name: 'Eliminar' }))
    expect(await screen.findByText('Usuario eliminado')).toBeInTheDocument()
    expect(screen.getByText('El usuario ha sido eliminado correctamente')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/users/3'])
  })

  it('shows Error al eliminar when the deletion fails', async () => {
    api({ 'DELETE /api/users/3': refusal(500, 'Ocurrió un error interno. Intenta nuevamente.') })
    signInAdmin()
    const { user } = renderRouteWithUser('/admin')
    await user.click(await screen.findByRole('button', { name: 'Eliminar Carla Gómez' }))
    await user.click(screen.getByRole('button', { name: 'Eliminar' }))
    const toast = await screen.findByTestId('toast')
    expect(toast).toHaveTextContent('Error al eliminar')
    expect(toast).toHaveTextContent('Ocurrió un error interno. Intenta nuevamente.')
  })

  it('Cerrar Sesión removes the flags, revokes the server session and goes to /admin-login', async () => {
    const { calls } = api({ 'POST /api/admin/logout': { json: { success: true } } })
    signInAdmin()
    const { user, router } = renderRouteWithUser('/admin')
    await user.click(await screen.findByRole('button', { name: 'Cerrar Sesión' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin-login'))
    expect(localStorage.getItem('adminAuthenticated')).toBeNull()
    expect(localStorage.getItem('adminLoginTime')).toBeNull()
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/admin/logout')).toBe(true)
  })
})

describe('/admin partners', () => {
  it('creates a partner with the spec rules and lists, deactivates and deletes', async () => {
    let list = [] as unknown[]
    const partner = {
      id: 4, keyId: 'pk_0123456789abcdef01234567', partnerName: 'CasaLista', domain: 'https://casalista.mx', isActive: true,
      permissions: ['widget_auth'], requestsCount: 0, createdAt: '2026-01-01T00:00:00Z',
    }
    const { calls } = api({
      'GET /api/admin/partners': () => ({ json: list }),
      'POST /api/admin/partners': () => {
        list = [partner]
        return { status: 201, json: partner }
      },
      'POST /api/admin/partners/4/deactivate': () => {
        list = [{ ...partner, isActive: false }]
        return { json: list[0] }
      },
      'DELETE /api/admin/partners/4': () => {
        list = []
        return { json: { success: true } }
      },
    })
    signInAdmin()
    const { user } = renderRouteWithUser('/admin')
    expect(await screen.findByText('No hay socios registrados.')).toBeInTheDocument()
    await fillAndSubmit(user, { Dominio: 'ab' }, 'Crear Socio')
    expect(await screen.findByText('El dominio es requerido')).toBeInTheDocument()
    await fillAndSubmit(user, { 'Nombre del socio': 'CasaLista', Dominio: 'casalista.mx' }, 'Crear Socio')
    const row = await screen.findByTestId('partner-row')
    expect(row).toHaveTextContent('https://casalista.mx')
    expect(row).toHaveTextContent('widget_auth')
    expect(calls.find((c) => c.path === '/api/admin/partners' && c.method === 'POST')?.body).toEqual({
      partnerName: 'CasaLista', domain: 'abcasalista.mx',
    })
    await user.click(screen.getByRole('button', { name: 'Desactivar CasaLista' }))
    expect(await within(await screen.findByTestId('partner-row')).findByText('Inactivo')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Eliminar CasaLista' }))
    expect(await screen.findByText('No hay socios registrados.')).toBeInTheDocument()
  })
})

describe('/admin validation lifecycle', () => {
  const validated = { ...users[0], fecha_validacion: '2026-01-10T12:00:00Z' }

  it('revokes with a reason and shows who and when; the row then says Revocado', async () => {
    let revoked = false
    const { calls } = mockApi({
      'GET /api/users': () => ({
        json: [revoked ? { ...validated, revokedAt: '2026-11-22T10:00:00Z', revokedReason: 'Documento robado' } : validated],
      }),
      'GET /api/admin/partners': { json: [] },
      'GET /api/admin/users/1/lifecycle': () => ({
        json: {
          events: revoked
            ? [{ tipo: 'revoked', motivo: 'Documento robado', quien: 'admin', ip: '203.0.113.5', fecha: '2026-11-22T10:00:00Z' }]
            : [],
        },
      }),
      'POST /api/admin/users/1/revoke': () => {
        revoked = true
        return { json: { ...validated, revokedAt: '2026-11-22T10:00:00Z', revokedReason: 'Documento robado' } }
      },
    })
    signInAdmin(60_000)
    renderRoute('/admin')
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Validación de Ana López' }))
    const dialog = screen.getByRole('dialog', { name: 'Validación de Ana López' })
    expect(await within(dialog).findByText('Sin cambios desde la validación.')).toBeInTheDocument()

    await user.click(within(dialog).getByRole('button', { name: 'Revocar validación' }))
    expect(within(dialog).getByText('El motivo de la revocación es requerido')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST')).toBe(false)

    await user.type(within(dialog).getByRole('textbox', { name: 'Motivo de la revocación' }), 'Documento robado')
    await user.click(within(dialog).getByRole('button', { name: 'Revocar validación' }))
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ motivo: 'Documento robado' })
    expect(await within(dialog).findByText('Motivo: Documento robado')).toBeInTheDocument()
    expect(within(dialog).getByText('Por un administrador (203.0.113.5)')).toBeInTheDocument()
    expect(within(dialog).getByText('Esta validación está revocada.')).toBeInTheDocument()
    const row = (await screen.findAllByTestId('user-row'))[0]
    expect(await within(row).findByText('Revocado')).toBeInTheDocument()
  })

  it('offers the lifecycle only for validated profiles', async () => {
    api()
    signInAdmin(60_000)
    renderRoute('/admin')
    await screen.findAllByTestId('user-row')
    expect(screen.queryByRole('button', { name: /^Validación de / })).not.toBeInTheDocument()
  })
})

describe('/admin payments', () => {
  const base = {
    plan: 'one_year', planName: 'Validación 1 año', years: 1, amount: 299, currency: 'MXN', used: false,
    provider: 'devsim', checkoutSessionId: 'cs_test_1', paymentIntentId: null, refundRequestedAt: null, refundedAt: null,
    consumedAt: null, refundable: false,
  }

  it('lists the user payments in the edit tab and refunds one after confirming', async () => {
    let requested = false
    const paid = {
      ...base, id: 21, status: 'paid', method: 'card', paymentIntentId: 'pi_1', paidAt: '2026-03-01T18:05:00Z',
      createdAt: '2026-03-01T18:00:00Z',
    }
    const { calls } = api({
      'GET /api/users/2': { json: users[1] },
      'GET /api/admin/users/2/payments': () => ({
        json: {
          payments: [
            requested ? { ...paid, refundable: false, refundRequestedAt: '2026-03-02T10:00:00Z' } : { ...paid, refundable: true },
            {
              ...base, id: 20, plan: 'five_years', planName: 'Validación 5 años', years: 5, amount: 399, status: 'failed',
              method: 'oxxo', createdAt: '2026-02-20T18:00:00Z',
            },
            { ...base, id: 19, status: 'refunded', method: 'card', consumedAt: '2026-01-10T12:00:00Z', createdAt: '2026-01-09T18:00:00Z' },
            { ...base, id: 18, status: 'paid', method: 'oxxo', paymentIntentId: 'pi_0', createdAt: '2026-01-02T18:00:00Z' },
          ],
        },
      }),
      'POST /api/admin/payments/21/refund': () => {
        requested = true
        return refusal(202, 'Reembolso solicitado a Stripe. Se registrará en cuanto Stripe lo confirme.')
      },
    })
    signInAdmin()
    const { user } = renderRouteWithUser('/admin')
    await user.click(await screen.findByRole('button', { name: 'Editar Beto Ruiz' }))
    const section = await screen.findByTestId('admin-payments')
    expect(within(section).getByRole('heading', { name: 'Pagos' })).toBeInTheDocument()
    const rows = await within(section).findAllByTestId('admin-payment-row')
    expect(within(section).getAllByRole('columnheader').slice(0, 5).map((h) => h.textContent)).toEqual([
      'Fecha', 'Plan', 'Importe', 'Método', 'Estado',
    ])
    expectTextContents(rows[0], ['01/03/2026 12:00', 'Validación 1 año', '$299.00 MXN', 'Tarjeta', 'Pagado'])
    expect(rows[1]).toHaveTextContent('Efectivo en OXXO')
    expect(rows[1]).toHaveTextContent('Ficha vencida')
    expect(within(rows[1]).queryByRole('button', { name: 'Reembolsar' })).not.toBeInTheDocument()
    expect(rows[2]).toHaveTextContent('Reembolsado (usado)')
    // Cash paid at OXXO cannot be refunded through Stripe.
    expect(rows[3]).toHaveTextContent('Efectivo en OXXO')
    expect(rows[3]).toHaveTextContent('Sin reembolso (efectivo)')
    expect(within(rows[3]).queryByRole('button', { name: 'Reembolsar' })).not.toBeInTheDocument()

    await user.click(within(rows[0]).getByRole('button', { name: 'Reembolsar' }))
    const dialog = screen.getByRole('alertdialog', { name: '¿Reembolsar este pago?' })
    expect(dialog).toHaveTextContent('Se devolverá el importe completo por medio de Stripe.')
    expect(dialog).not.toHaveTextContent('reembolsarlo no revoca la validación')
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }))
    expect(calls.some((c) => c.path.endsWith('/refund'))).toBe(false)

    await user.click(within(rows[0]).getByRole('button', { name: 'Reembolsar' }))
    await user.click(within(screen.getByRole('alertdialog', { name: '¿Reembolsar este pago?' })).getByRole('button', { name: 'Sí, reembolsar' }))
    expect(await screen.findByTestId('toast')).toHaveTextContent('Reembolso solicitado a Stripe. Se registrará en cuanto Stripe lo confirme.')
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/api/admin/payments/21/refund'])
    const row = (await within(section).findAllByTestId('admin-payment-row'))[0]
    expect(await within(row).findByText('Reembolso solicitado')).toBeInTheDocument()
    expect(within(row).queryByRole('button', { name: 'Reembolsar' })).not.toBeInTheDocument()
  })

  it('shows the refusal and says when there are no payments', async () => {
    api({
      'GET /api/users/2': { json: users[1] },
      'GET /api/admin/users/2/payments': { json: { payments: [] } },
      'GET /api/users/3': { json: users[2] },
      'GET /api/admin/users/3/payments': {
        json: {
          payments: [
            {
              ...base, id: 30, status: 'paid', method: 'card', refundable: true, consumedAt: '2026-03-02T18:00:00Z',
              createdAt: '2026-03-01T18:00:00Z',
            },
          ],
        },
      },
      'POST /api/admin/payments/30/refund': refusal(409, 'Este pago ya se usó para una validación.'),
    })
    signInAdmin()
    const { user } = renderRouteWithUser('/admin')
    await user.click(await screen.findByRole('button', { name: 'Editar Beto Ruiz' }))
    expect(await within(await screen.findByTestId('admin-payments')).findByText('Sin pagos registrados.')).toBeInTheDocument()

    await user.click(screen.getByRole('tab', { name: 'Usuarios' }))
    await user.click(await screen.findByRole('button', { name: 'Editar Carla Gómez' }))
    const section = await screen.findByTestId('admin-payments')
    await user.click(await within(section).findByRole('button', { name: 'Reembolsar' }))
    // A payment already spent on a validation: the refund leaves the validation standing, and says so.
    expect(screen.getByRole('alertdialog')).toHaveTextContent(
      'Este pago ya se usó para una validación: reembolsarlo no revoca la validación.',
    )
    await user.click(screen.getByRole('button', { name: 'Sí, reembolsar' }))
    const toast = await screen.findByTestId('toast')
    expect(toast).toHaveTextContent('Error')
    expect(toast).toHaveTextContent('Este pago ya se usó para una validación.')
  })
})
