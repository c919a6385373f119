import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { fillAndSubmit } from '@/testing/fill-form'
import { renderRouteWithUser } from '@/testing/render-route'
import { adminSession, signInAdmin } from '@/testing/admin'

vi.setConfig({ testTimeout: 30_000 })

const partner = {
  id: 5,
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
const keys = {
  publishableLive: 'pk_live_0123456789abcdef01234567',
  publishableTest: 'pk_test_0123456789abcdef01234567',
  secretLive: 'sk_live_' + 'a'.repeat(48),
  secretTest: 'sk_test_' + 'b'.repeat(48),
}

describe('/admin › Socios: a new partner’s keys', () => {
  it('shows all four keys once, with copy buttons and the warning that secrets are not shown again', async () => {
    signInAdmin()
    let list: unknown[] = []
    mockApi({
      'GET /api/admin/session': adminSession('administrador'),
      'GET /api/users': { json: [] },
      'GET /api/admin/partners': () => ({ json: list }),
      'POST /api/admin/partners': () => {
        list = [partner]
        return { status: 201, json: { ...partner, keys } }
      },
    })
    const { user } = renderRouteWithUser('/admin')
    await fillAndSubmit(user, { 'Nombre del socio': 'CasaLista', Dominio: 'https://www.casalista.mx' }, 'Crear Socio')

    const dialog = await screen.findByTestId('new-partner-keys')
    expect(dialog).toHaveTextContent('Llaves de CasaLista')
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Las llaves secretas se muestran solo esta vez')
    expect(within(dialog).getByTestId('key-publishableLive')).toHaveTextContent(keys.publishableLive)
    expect(within(dialog).getByTestId('key-publishableTest')).toHaveTextContent(keys.publishableTest)
    expect(within(dialog).getByTestId('key-secretLive')).toHaveTextContent(keys.secretLive)
    expect(within(dialog).getByTestId('key-secretTest')).toHaveTextContent(keys.secretTest)

    await user.click(within(dialog).getByRole('button', { name: 'Copiar llave secreta de producción' }))
    expect(await navigator.clipboard.readText()).toBe(keys.secretLive)
    expect(await within(dialog).findByRole('button', { name: 'llave secreta de producción copiada' })).toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: 'Copiar llave publicable de prueba' }))
    expect(await navigator.clipboard.readText()).toBe(keys.publishableTest)

    // Closed, the secrets are gone from the page: the list shows only the key id.
    await user.click(within(dialog).getByRole('button', { name: 'Ya las guardé' }))
    await waitFor(() => expect(screen.queryByTestId('new-partner-keys')).not.toBeInTheDocument())
    expect(await screen.findByTestId('partner-row')).toHaveTextContent(partner.keyId)
    expect(document.body).not.toHaveTextContent(keys.secretLive)
    expect(document.body).not.toHaveTextContent(keys.secretTest)
  })

  it('reactivates a deactivated partner', async () => {
    signInAdmin()
    let active = false
    const { calls } = mockApi({
      'GET /api/admin/session': adminSession('administrador'),
      'GET /api/users': { json: [] },
      'GET /api/admin/partners': () => ({ json: [{ ...partner, isActive: active }] }),
      'POST /api/admin/partners/5/activate': () => {
        active = true
        return { json: { ...partner, isActive: true } }
      },
    })
    const { user } = renderRouteWithUser('/admin')
    await user.click(await screen.findByRole('button', { name: 'Reactivar CasaLista' }))
    expect(await within(await screen.findByTestId('partner-row')).findByText('Activo')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/admin/partners/5/activate')).toBe(true)
    expect(screen.getByRole('button', { name: 'Desactivar CasaLista' })).toBeInTheDocument()
  })
})
