import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { renderRoute } from '@/testing/render-route'
import { adminSession, signInAdmin } from '@/testing/admin'

vi.setConfig({ testTimeout: 30_000 })

// Issue 38: only an administrador lifts a revocation, with a reason; the history shows the lift.

const revokedAt = '2026-11-20T18:00:00Z'
const revoked = {
  id: 1,
  nombre: 'Ana López',
  email: 'ana@casalista.mx',
  origen: 'CasaLista',
  vigencia: 1,
  id_validado: 'PS-1111-2222-33',
  fecha_validacion: null, // a name correction annulled it after the revocation
  revokedAt,
  revokedReason: 'Documento robado',
}
const lifted = { ...revoked, revokedAt: null, revokedReason: null }
const revokedEvent = { tipo: 'revoked', motivo: 'Documento robado', quien: 'admin', administrador: 'ana@perfilseguro.mx', ip: '203.0.113.5', fecha: revokedAt }

describe('/admin lifting a revocation', () => {
  it('an administrador lifts it with a reason; the history shows the lift and the row no longer says Revocado', async () => {
    let done = false
    const { calls } = mockApi({
      'GET /api/admin/session': adminSession('administrador'),
      'GET /api/users': () => ({ json: [done ? lifted : revoked] }),
      'GET /api/admin/partners': { json: [] },
      'GET /api/admin/users/1/lifecycle': () => ({
        json: {
          events: done
            ? [
                { tipo: 'lifted', motivo: 'Documento aclarado', quien: 'admin', administrador: 'admin@perfilseguro.local', ip: '203.0.113.9', fecha: '2026-11-25T18:00:00Z' },
                revokedEvent,
              ]
            : [revokedEvent],
        },
      }),
      'POST /api/admin/users/1/lift-revocation': () => {
        done = true
        return { json: lifted }
      },
    })
    signInAdmin()
    renderRoute('/admin')
    const user = userEvent.setup()
    const row = (await screen.findAllByTestId('user-row'))[0]
    expect(within(row).getByText('Revocado')).toBeInTheDocument()
    // Revoked and no longer validated (a name correction): the history and the lift are still reachable.
    await user.click(within(row).getByRole('button', { name: 'Validación de Ana López' }))
    const dialog = screen.getByRole('dialog', { name: 'Validación de Ana López' })
    expect(await within(dialog).findByText('Motivo: Documento robado')).toBeInTheDocument()
    expect(within(dialog).getByText('Esta validación está revocada.')).toBeInTheDocument()
    expect(within(dialog).queryByRole('button', { name: 'Revocar validación' })).not.toBeInTheDocument()

    await user.click(within(dialog).getByRole('button', { name: 'Levantar revocación' }))
    expect(within(dialog).getByText('El motivo para levantar la revocación es requerido')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST')).toBe(false)

    await user.type(within(dialog).getByRole('textbox', { name: 'Motivo para levantar la revocación' }), 'Documento aclarado')
    await user.click(within(dialog).getByRole('button', { name: 'Levantar revocación' }))
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      path: '/api/admin/users/1/lift-revocation',
      body: { motivo: 'Documento aclarado' },
    })
    expect(await screen.findByText('Ana López puede validar su identidad de nuevo. Le avisamos por correo.')).toBeInTheDocument()
    const lift = (await within(dialog).findByText(/^Revocación levantada ·/)).closest('li') as HTMLElement
    expect(lift).toHaveTextContent('Por un administrador: admin@perfilseguro.local (203.0.113.9)')
    expect(lift).toHaveTextContent('Motivo: Documento aclarado')
    expect(within(dialog).queryByText('Esta validación está revocada.')).not.toBeInTheDocument()
    expect(within(dialog).queryByRole('button', { name: 'Levantar revocación' })).not.toBeInTheDocument()
    await waitFor(() => expect(within(screen.getAllByTestId('user-row')[0]).queryByText('Revocado')).not.toBeInTheDocument())
  })

  it('soporte and finanzas read the history but get no lift form', async () => {
    for (const role of ['soporte', 'finanzas'] as const) {
      mockApi({
        'GET /api/admin/session': adminSession(role),
        'GET /api/users': { json: [revoked] },
        'GET /api/admin/users/1/lifecycle': { json: { events: [revokedEvent] } },
      })
      signInAdmin()
      const { unmount } = renderRoute('/admin')
      await userEvent.click(await screen.findByRole('button', { name: 'Validación de Ana López' }))
      expect(await screen.findByText('Motivo: Documento robado')).toBeInTheDocument()
      expect(screen.getByText('Esta validación está revocada.')).toBeInTheDocument()
      expect(screen.queryByRole('button', { name: 'Levantar revocación' })).not.toBeInTheDocument()
      expect(screen.queryByRole('textbox', { name: 'Motivo para levantar la revocación' })).not.toBeInTheDocument()
      unmount()
    }
  })
})
