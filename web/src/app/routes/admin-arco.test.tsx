import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockApi, refusal, type MockHandler } from '@/testing/mock-api'
import { renderRoute, renderRouteWithUser } from '@/testing/render-route'
import { signInAdmin } from '@/testing/admin'
import { expectTextContents } from '@/testing/expect-text'

// These tests type a lot; give them room on a busy 2-core machine.
vi.setConfig({ testTimeout: 30_000 })

const base = { channel: 'app', details: null, resolution: null, resolvedAt: null, state: 'recibida' }

const open = [
  {
    ...base, id: 1, type: 'acceso', state: 'en_proceso', receivedAt: '2026-10-20T18:00:00Z', dueAt: '2026-11-18T23:59:59-06:00',
    profileId: 'PS-1111-2222-33', nombre: 'Ana López', details: 'Descarga de mis datos', businessDaysLeft: -2,
  },
  {
    ...base, id: 2, type: 'cancelacion', channel: 'correo', receivedAt: '2026-10-28T18:00:00Z', dueAt: '2026-11-26T23:59:59-06:00',
    profileId: 'PS-4444-5555-66', nombre: 'Beto Ruiz', businessDaysLeft: 2,
  },
  {
    ...base, id: 3, type: 'oposicion', receivedAt: '2026-11-20T18:00:00Z', dueAt: '2026-12-18T23:59:59-06:00',
    profileId: 'PS-7777-8888-99', nombre: null, businessDaysLeft: 18,
  },
]

const resolved = {
  ...base, id: 4, type: 'rectificacion', state: 'atendida', receivedAt: '2026-09-01T18:00:00Z', dueAt: '2026-09-29T23:59:59-06:00',
  resolvedAt: '2026-09-01T18:00:00Z', resolution: 'Atendida desde Mi Perfil.', profileId: 'PS-1111-2222-33', nombre: 'Ana López',
  businessDaysLeft: -40,
}

function api(extra: Record<string, MockHandler> = {}) {
  return mockApi({
    'GET /api/users': { json: [] },
    'GET /api/admin/partners': { json: [] },
    'GET /api/admin/arco-requests': (_, url) => ({ json: url.searchParams.get('state') === 'all' ? [resolved, ...open] : open }),
    ...extra,
  })
}

async function openTab() {
  const { user } = renderRouteWithUser('/admin')
  const tab = await screen.findByRole('tab', { name: 'Solicitudes ARCO' })
  await user.click(tab)
  return user
}

describe('/admin ARCO requests', () => {
  it('adds the tab after the three of the spec and lists the open requests with the business days left', async () => {
    signInAdmin()
    const { calls } = api()
    renderRoute('/admin')
    await screen.findByRole('tab', { name: 'Usuarios' })
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Usuarios',
      'Crear Usuario',
      'Editar Usuario',
      'Revisión de identidad',
      'Solicitudes ARCO',
      'Bitácora',
      'Administradores',
      'Umbrales LFPIORPI',
    ])
    expect(calls.some((c) => c.path === '/api/admin/arco-requests')).toBe(false)

    await userEvent.click(screen.getByRole('tab', { name: 'Solicitudes ARCO' }))
    const rows = await screen.findAllByTestId('arco-row')
    expect(calls.find((c) => c.path === '/api/admin/arco-requests')!.url.searchParams.get('state')).toBe('open')
    const panel = screen.getByRole('tabpanel')
    expect(within(panel).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Recibida', 'Perfil', 'Tipo', 'Canal', 'Días hábiles restantes', 'Estado', 'Acciones',
    ])
    expect(rows).toHaveLength(3)
    // Oldest first, as the server sends them.
    expectTextContents(rows[0], ['20/10/2026', 'Ana López', 'PS-1111-2222-33', 'Acceso', 'App', 'En proceso'])
    expect(within(rows[0]).getByText('Vencida')).toHaveClass('badge-error')
    expect(rows[1]).toHaveTextContent('Cancelación')
    expect(rows[1]).toHaveTextContent('Correo')
    expect(within(rows[1]).getByText('2 días')).toHaveClass('badge-error')
    expect(rows[2]).toHaveTextContent('Oposición')
    expect(rows[2]).toHaveTextContent('Cuenta eliminada')
    expect(within(rows[2]).getByText('18 días')).not.toHaveClass('badge')
    for (const row of rows) {
      expect(within(row).getByRole('button', { name: 'Marcar atendida' })).toBeInTheDocument()
      expect(within(row).getByRole('button', { name: 'Rechazar' })).toBeInTheDocument()
    }

    await userEvent.click(within(panel).getByRole('button', { name: 'Todas' }))
    await waitFor(() => expect(screen.getAllByTestId('arco-row')).toHaveLength(4))
    const first = screen.getAllByTestId('arco-row')[0]
    expect(first).toHaveTextContent('Rectificación')
    expect(first).toHaveTextContent('Atendida desde Mi Perfil.')
    expect(within(first).queryByRole('button', { name: 'Marcar atendida' })).not.toBeInTheDocument()
    expect(calls.filter((c) => c.path === '/api/admin/arco-requests').at(-1)!.url.searchParams.get('state')).toBe('all')
  })

  it('records a request received by e-mail, with the server refusals under their fields', async () => {
    signInAdmin()
    let list = [...open]
    const created = {
      ...base, id: 9, type: 'rectificacion', channel: 'correo', receivedAt: '2026-11-24T18:00:00Z', dueAt: '2026-12-22T23:59:59-06:00',
      profileId: 'PS-4444-5555-66', nombre: 'Beto Ruiz', details: 'Pide corregir su apellido', businessDaysLeft: 20,
    }
    let posts = 0
    const { calls } = api({
      'GET /api/admin/arco-requests': () => ({ json: list }),
      'POST /api/admin/arco-requests': () => {
        posts += 1
        if (posts === 1) return { status: 400, json: { message: 'ID de perfil no válido', errors: { profileId: 'ID de perfil no válido' } } }
        if (posts === 2) return refusal(404, 'Usuario no encontrado')
        list = [...open, created]
        return { status: 201, json: created }
      },
    })
    const user = await openTab()
    await screen.findAllByTestId('arco-row')
    const form = screen.getByRole('form', { name: 'Registrar solicitud recibida por correo' })

    await user.click(within(form).getByRole('button', { name: 'Registrar solicitud' }))
    expect(await within(form).findByText('El ID de perfil es requerido')).toBeInTheDocument()
    expect(within(form).getByText('Describe la solicitud (de 5 a 2000 caracteres)')).toBeInTheDocument()
    expect(posts).toBe(0)

    await user.type(within(form).getByLabelText('ID de perfil'), 'PS-0000')
    await user.selectOptions(within(form).getByLabelText('Tipo de solicitud'), 'rectificacion')
    await user.type(within(form).getByLabelText('Detalle'), 'Pide corregir su apellido')
    await user.click(within(form).getByRole('button', { name: 'Registrar solicitud' }))
    expect(await within(form).findByText('ID de perfil no válido')).toBeInTheDocument()

    await user.clear(within(form).getByLabelText('ID de perfil'))
    await user.type(within(form).getByLabelText('ID de perfil'), 'PS-9999-9999-99')
    await user.click(within(form).getByRole('button', { name: 'Registrar solicitud' }))
    expect(await screen.findByTestId('toast')).toHaveTextContent('Usuario no encontrado')

    await user.clear(within(form).getByLabelText('ID de perfil'))
    await user.type(within(form).getByLabelText('ID de perfil'), 'PS-4444-5555-66')
    await user.click(within(form).getByRole('button', { name: 'Registrar solicitud' }))
    expect(await screen.findByText('Solicitud registrada')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'POST').at(-1)!.body).toEqual({
      profileId: 'PS-4444-5555-66', type: 'rectificacion', details: 'Pide corregir su apellido',
    })
    await waitFor(() => expect(screen.getAllByTestId('arco-row')).toHaveLength(4))
    expect(screen.getAllByTestId('arco-row')[3]).toHaveTextContent('20 días')
    expect(within(form).getByLabelText('ID de perfil')).toHaveValue('')
  })

  it('marks a request answered with the answer given, which is required', async () => {
    signInAdmin()
    let list = [...open]
    const { calls } = api({
      'GET /api/admin/arco-requests': () => ({ json: list }),
      'PUT /api/admin/arco-requests/2': (body) => {
        const { state, resolution } = body as { state: string; resolution: string }
        const done = { ...open[1], state, resolution, resolvedAt: '2026-11-24T18:00:00Z' }
        list = [open[0], open[2]]
        return { json: done }
      },
    })
    const user = await openTab()
    const row = (await screen.findAllByTestId('arco-row'))[1]
    await user.click(within(row).getByRole('button', { name: 'Rechazar' }))
    let dialog = screen.getByRole('alertdialog', { name: 'Rechazar solicitud' })
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }))

    await user.click(within(row).getByRole('button', { name: 'Marcar atendida' }))
    dialog = screen.getByRole('alertdialog', { name: 'Marcar solicitud como atendida' })
    expect(dialog).toHaveTextContent('Cancelación de Beto Ruiz.')
    await user.type(within(dialog).getByRole('textbox', { name: 'Respuesta dada' }), 'Ok')
    await user.click(within(dialog).getByRole('button', { name: 'Marcar atendida' }))
    expect(within(dialog).getByText('Escribe la respuesta dada (de 5 a 2000 caracteres)')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'PUT')).toBe(false)

    await user.type(within(dialog).getByRole('textbox', { name: 'Respuesta dada' }), ': cuenta eliminada el 24/11.')
    await user.click(within(dialog).getByRole('button', { name: 'Marcar atendida' }))
    expect(await screen.findByText('Solicitud atendida')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ state: 'atendida', resolution: 'Ok: cuenta eliminada el 24/11.' })
    await waitFor(() => expect(screen.getAllByTestId('arco-row')).toHaveLength(2))
  })

  it('sends a lapsed administrator session to /admin-login', async () => {
    signInAdmin()
    api({ 'GET /api/admin/arco-requests': refusal(401, 'Inicia sesión como administrador para continuar.') })
    const { user, router } = renderRouteWithUser('/admin')
    await user.click(await screen.findByRole('tab', { name: 'Solicitudes ARCO' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin-login'))
  })
})
