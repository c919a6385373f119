import { screen, waitFor } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { mockApi, refusal } from '@/testing/mock-api'
import { renderRoute, renderRouteWithUser } from '@/testing/render-route'

const webauthn = vi.hoisted(() => ({ startRegistration: vi.fn() }))

vi.mock('@simplewebauthn/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@simplewebauthn/browser')>()
  return { ...actual, browserSupportsWebAuthn: () => true, startRegistration: webauthn.startRegistration }
})

const token = 'b'.repeat(64)

describe('/socios/registro', () => {
  beforeEach(() => webauthn.startRegistration.mockReset())

  it('says whom the link is for, registers the passkey and opens the console', async () => {
    let enrolled = false
    const { calls } = mockApi({
      'GET /api/socios/enrol': { json: { email: 'diego@casalista.mx', name: 'Diego', role: 'desarrollador', partnerName: 'CasaLista' } },
      'POST /api/socios/enrol/options': { json: { publicKey: { challenge: 'Y2hhbGxlbmdl', rp: { id: 'localhost', name: 'Perfil Seguro' } } } },
      'POST /api/socios/enrol/verify': () => {
        enrolled = true
        return { json: { success: true, authenticated: true, message: 'Entraste a la consola de socios.' } }
      },
      'GET /api/socios/me': () =>
        enrolled
          ? {
              json: {
                user: { id: 8, email: 'diego@casalista.mx', name: 'Diego', role: 'desarrollador', createdAt: '2026-11-01T00:00:00Z', invitedBy: null,
                  disabledAt: null, enrolled: true, lastSignInAt: null },
                partner: { id: 3, name: 'CasaLista', domain: 'https://www.casalista.mx', isActive: true },
                actions: ['read', 'keys', 'webhook', 'origin', 'resend'],
                expiresAt: '2026-11-25T02:00:00Z',
              },
            }
          : refusal(401, 'Inicia sesión.'),
      'GET /api/socios/keys': { json: [] },
    })
    webauthn.startRegistration.mockResolvedValue({ id: 'Y3JlZA', rawId: 'Y3JlZA', type: 'public-key', response: {}, clientExtensionResults: {} })
    const { user, router } = renderRouteWithUser(`/socios/registro?token=${token}`)

    expect(await screen.findByText(/Te invitaron a/)).toHaveTextContent('Te invitaron a CasaLista como Desarrollador: Llaves, webhook, origen y reenvíos.')
    await user.click(screen.getByRole('button', { name: 'Crear llave de acceso' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/socios'))
    expect(await screen.findByRole('heading', { name: 'CasaLista' })).toBeInTheDocument()
    expect(await screen.findByText('Aún no tienes llaves de prueba.')).toBeInTheDocument()
    expect(calls.find((c) => c.path === '/api/socios/enrol/verify')?.body).toMatchObject({ token, credential: { id: 'Y3JlZA' } })
    expect(calls.find((c) => c.path === '/api/socios/enrol')?.url.searchParams.get('token')).toBe(token)
  })

  it('says so when the link was used or expired', async () => {
    mockApi({
      'GET /api/socios/enrol': refusal(410, 'Este enlace de registro ya se usó o venció. Pide uno nuevo a quien administra tu plataforma.'),
    })
    renderRoute(`/socios/registro?token=${token}`)
    expect(await screen.findByText('Este enlace de registro ya se usó o venció. Pide uno nuevo a quien administra tu plataforma.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Crear llave de acceso' })).not.toBeInTheDocument()
  })

  it('asks for the link when it has no token', async () => {
    mockApi({})
    renderRoute('/socios/registro')
    expect(await screen.findByText('Falta el enlace de registro. Ábrelo tal como lo recibiste.')).toBeInTheDocument()
  })
})
