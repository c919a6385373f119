import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { mockApi, refusal, type MockHandler } from '@/testing/mock-api'
import { renderRoute, renderRouteWithUser } from '@/testing/render-route'
import { baseProfileUser, paymentsOff, profileRoutes } from '@/testing/profile-user'

vi.setConfig({ testTimeout: 30_000 })

// The browser side of WebAuthn is @simplewebauthn/browser; these tests play it.
const webauthn = vi.hoisted(() => ({ startRegistration: vi.fn() }))

vi.mock('@simplewebauthn/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@simplewebauthn/browser')>()
  return { ...actual, browserSupportsWebAuthn: () => true, startRegistration: webauthn.startRegistration }
})

const user7 = baseProfileUser

const laptop = {
  id: 11,
  name: 'Mi laptop',
  createdAt: '2026-11-20T18:00:00Z',
  lastUsedAt: null,
  synced: false,
  blocked: false,
}
const phone = { ...laptop, id: 12, name: 'Mi teléfono', lastUsedAt: '2026-11-24T17:30:00Z', synced: true }

const registration = {
  id: 'bmV3',
  rawId: 'bmV3',
  type: 'public-key',
  response: { clientDataJSON: 'e30', attestationObject: 'oA' },
  clientExtensionResults: {},
}

/** The confirmation from the current contact that adding a passkey starts with (issue 54, item 21). */
const confirmationRoutes: Record<string, MockHandler> = {
  'POST /api/users/7/confirmation-code': {
    status: 202,
    json: { message: 'Te enviamos un código por WhatsApp al +52 •• •••• 4321.', channel: 'phone', verificationCode: '135790' },
  },
  'POST /api/users/7/confirmation': { json: { confirmedUntil: new Date(Date.now() + 5 * 60_000).toISOString() } },
}

/** Mocks user 7's profile (payments off) with the passkey routes given. */
function api(extra: Record<string, MockHandler>) {
  return mockApi({ ...profileRoutes(user7), 'GET /api/payments/status': paymentsOff, ...confirmationRoutes, ...extra })
}

/** Confirms in the passkeys card with the code sent to the current contact. */
async function confirmByCode(card: HTMLElement) {
  await userEvent.click(await within(card).findByRole('button', { name: 'Enviar código a mi contacto actual' }))
  await userEvent.type(await within(card).findByLabelText('Código de confirmación'), '135790')
  await userEvent.click(within(card).getByRole('button', { name: 'Confirmar código' }))
}

describe('Mi Perfil: Llaves de acceso', () => {
  beforeEach(() => {
    localStorage.setItem('userId', '7')
    webauthn.startRegistration.mockReset()
  })

  it('lists each passkey with its dates and whether it is synced or on this device', async () => {
    api({ 'GET /api/users/7/passkeys': { json: [laptop, phone] } })
    renderRoute('/profile')
    const card = await screen.findByTestId('passkeys-card')
    const rows = await within(card).findAllByTestId('passkey-row')
    expect(rows).toHaveLength(2)
    expect(within(rows[0]).getByText('Mi laptop')).toBeInTheDocument()
    expect(within(rows[0]).getByText('En este dispositivo')).toBeInTheDocument()
    expect(within(rows[0]).getByText(/Aún no la usas para entrar/)).toBeInTheDocument()
    expect(within(rows[1]).getByText('Sincronizada')).toBeInTheDocument()
    expect(within(rows[1]).getByText(/Último uso:/)).toBeInTheDocument()
  })

  it('says passkeys are unavailable on this address, and offers no button, when the server answers 503', async () => {
    api({
      'GET /api/users/7/passkeys': refusal(503, 'Las llaves de acceso no están disponibles en esta dirección.'),
    })
    renderRoute('/profile')
    const card = await screen.findByTestId('passkeys-card')
    expect(await within(card).findByText(/no están disponibles en esta dirección del servicio/)).toBeInTheDocument()
    expect(within(card).queryByRole('button', { name: 'Crear llave de acceso' })).not.toBeInTheDocument()
  })

  it('creates a passkey through the browser and shows it', async () => {
    let list: unknown[] = []
    const { calls } = api({
      'GET /api/users/7/passkeys': () => ({ json: list }),
      'POST /api/users/7/passkeys/options': { json: { publicKey: { challenge: 'Y2g', rp: { id: 'localhost', name: 'Perfil Seguro' } } } },
      'POST /api/users/7/passkeys': () => {
        list = [{ ...laptop, name: 'Llave de acceso 1' }]
        return { status: 201, json: list[0] }
      },
    })
    webauthn.startRegistration.mockResolvedValue(registration)
    const { user } = renderRouteWithUser('/profile')
    const card = await screen.findByTestId('passkeys-card')
    expect(await within(card).findByText('Aún no tienes llaves de acceso.')).toBeInTheDocument()

    await user.click(within(card).getByRole('button', { name: 'Crear llave de acceso' }))
    // A session alone cannot add a passkey: first a code to the current contact (no passkey yet,
    // so no passkey button), and nothing is asked of the browser before it.
    expect(await within(card).findByText(/primero confirma que eres tú/)).toBeInTheDocument()
    expect(within(card).queryByRole('button', { name: 'Confirmar con mi llave de acceso' })).not.toBeInTheDocument()
    expect(calls.some((c) => c.path === '/api/users/7/passkeys/options')).toBe(false)
    await confirmByCode(card)

    expect(await within(card).findByText('Llave de acceso 1')).toBeInTheDocument()
    expect(calls.find((c) => c.path === '/api/users/7/confirmation')?.body).toEqual({ code: '135790' })
    expect(webauthn.startRegistration).toHaveBeenCalledWith({ optionsJSON: { challenge: 'Y2g', rp: { id: 'localhost', name: 'Perfil Seguro' } } })
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/users/7/passkeys')?.body).toEqual({ credential: registration })
    expect(screen.getByText('Llave de acceso creada')).toBeInTheDocument()
  })

  it('says it was cancelled when the person closes the browser window', async () => {
    const { calls } = api({
      'GET /api/users/7/passkeys': { json: [] },
      'POST /api/users/7/passkeys/options': { json: { publicKey: { challenge: 'Y2g' } } },
    })
    webauthn.startRegistration.mockRejectedValue(Object.assign(new Error('not allowed'), { name: 'NotAllowedError' }))
    const { user } = renderRouteWithUser('/profile')
    const card = await screen.findByTestId('passkeys-card')
    await user.click(await within(card).findByRole('button', { name: 'Crear llave de acceso' }))
    await confirmByCode(card)
    expect(await screen.findByText(/Cancelaste la llave de acceso/)).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/users/7/passkeys')).toBe(false)
  })

  it('renames a passkey, refusing an empty name', async () => {
    let list = [laptop]
    const { calls } = api({
      'GET /api/users/7/passkeys': () => ({ json: list }),
      'PATCH /api/users/7/passkeys/11': (body) => {
        list = [{ ...laptop, name: (body as { name: string }).name }]
        return { json: list[0] }
      },
    })
    const { user } = renderRouteWithUser('/profile')
    const card = await screen.findByTestId('passkeys-card')
    await user.click(await within(card).findByRole('button', { name: 'Cambiar nombre de Mi laptop' }))
    const input = within(card).getByLabelText('Nombre de la llave')
    await user.clear(input)
    await user.click(within(card).getByRole('button', { name: 'Guardar' }))
    expect(await within(card).findByText('El nombre debe tener entre 1 y 60 caracteres.')).toBeInTheDocument()
    await user.type(input, 'Computadora de la oficina')
    await user.click(within(card).getByRole('button', { name: 'Guardar' }))
    expect(await within(card).findByText('Computadora de la oficina')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ name: 'Computadora de la oficina' })
  })

  it('deletes a passkey after confirming', async () => {
    let list = [laptop]
    const { calls } = api({
      'GET /api/users/7/passkeys': () => ({ json: list }),
      'DELETE /api/users/7/passkeys/11': () => {
        list = []
        return { json: { success: true, message: 'Eliminamos la llave de acceso.' } }
      },
    })
    const { user } = renderRouteWithUser('/profile')
    const card = await screen.findByTestId('passkeys-card')
    await user.click(await within(card).findByRole('button', { name: 'Eliminar Mi laptop' }))
    const dialog = await screen.findByRole('dialog', { name: '¿Eliminar esta llave de acceso?' })
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false)
    await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }))
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/users/7/passkeys/11')).toBe(true))
    expect(await within(card).findByText('Aún no tienes llaves de acceso.')).toBeInTheDocument()
    expect(screen.getByText('Llave de acceso eliminada')).toBeInTheDocument()
  })
})
