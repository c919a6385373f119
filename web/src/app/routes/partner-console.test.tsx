import { screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { mockApi, refusal, screenCalls, type MockHandler } from '@/testing/mock-api'
import { renderRoute, renderRouteWithUser } from '@/testing/render-route'
import { expectTextContents } from '@/testing/expect-text'

vi.setConfig({ testTimeout: 30_000 })

// The browser side of WebAuthn is @simplewebauthn/browser; these tests play it.
const webauthn = vi.hoisted(() => ({ startAuthentication: vi.fn() }))

vi.mock('@simplewebauthn/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@simplewebauthn/browser')>()
  return { ...actual, browserSupportsWebAuthn: () => true, startAuthentication: webauthn.startAuthentication }
})

type Role = 'propietario' | 'desarrollador' | 'lectura'

const ACTIONS: Record<Role, string[]> = {
  propietario: ['read', 'keys', 'webhook', 'origin', 'resend', 'team'],
  desarrollador: ['read', 'keys', 'webhook', 'origin', 'resend'],
  lectura: ['read'],
}

function me(role: Role = 'propietario') {
  return {
    user: {
      id: 7,
      email: 'laura@casalista.mx',
      name: 'Laura Ríos',
      role,
      createdAt: '2026-11-01T18:00:00Z',
      invitedBy: 'admin@perfilseguro.mx',
      disabledAt: null,
      enrolled: true,
      lastSignInAt: '2026-11-20T18:00:00Z',
    },
    partner: { id: 3, name: 'CasaLista', domain: 'https://www.casalista.mx', isActive: true },
    actions: ACTIONS[role],
    expiresAt: '2026-11-25T02:00:00Z',
  }
}

const key = (id: number, livemode: boolean, kind: 'secret' | 'publishable', hint: string, revokedAt: string | null = null) => ({
  id,
  kind,
  livemode,
  hint,
  createdAt: '2026-11-02T17:00:00Z',
  createdBy: 'laura@casalista.mx',
  lastUsedAt: null,
  revokedAt,
})

const testKeys = [key(1, false, 'secret', 'sk_test_…9f3a'), key(2, false, 'publishable', 'pk_test_0123456789abcdef01234567')]
const liveKeys = [key(3, true, 'secret', 'sk_live_…c0de'), key(4, true, 'secret', 'sk_live_…dead', '2026-11-10T17:00:00Z')]

/** The origin's proof as GET /api/socios/origin answers before any check (issue 54 item 12). */
const originProof = {
  origin: 'https://www.casalista.mx',
  proven: false,
  provenAt: null,
  checkedAt: null,
  local: false,
  liveNeedsProof: true,
  txtName: 'www.casalista.mx',
  txtValue: 'perfilseguro-verification=0123456789abcdef0123456789abcdef',
  fileUrl: 'https://www.casalista.mx/.well-known/perfilseguro-verification.txt',
}

/** The console's reads, signed in as role; overrides win. */
function consoleApi(role: Role = 'propietario', overrides: Record<string, MockHandler> = {}) {
  return mockApi({
    'GET /api/socios/me': { json: me(role) },
    'GET /api/socios/keys': (_b, url) => ({ json: url.searchParams.get('mode') === 'live' ? liveKeys : testKeys }),
    'GET /api/socios/webhook': { json: { url: 'https://api.casalista.mx/hooks', hasSecret: true, previousSecretUntil: null } },
    'GET /api/socios/deliveries': { json: { data: [], hasMore: false } },
    'GET /api/socios/sessions': { json: { mode: 'test', data: [], hasMore: false } },
    'GET /api/socios/users': { json: [me(role).user] },
    'GET /api/socios/origin': { json: originProof },
    ...overrides,
  })
}

describe('/socios', () => {
  beforeEach(() => {
    webauthn.startAuthentication.mockReset()
    // A browser that has held a console session: the console asks the server who is signed in.
    window.localStorage.setItem('ps_console', '1')
  })

  it('in a browser that never signed in shows the sign-in at once, without asking the server (issue 54)', async () => {
    window.localStorage.removeItem('ps_console')
    const { calls } = mockApi({ 'GET /api/socios/me': { json: me() } })
    renderRouteWithUser('/socios')
    expect(screen.getByRole('heading', { name: 'Consola de socios' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Entrar con llave de acceso' })).toBeInTheDocument()
    await new Promise((r) => setTimeout(r, 50))
    expect(calls.some((c) => c.path === '/api/socios/me')).toBe(false)
  })

  it('signs in with a passkey only, then shows the platform, the person and the tabs', async () => {
    let signedIn = false
    const { calls } = mockApi({
      'GET /api/socios/me': () => (signedIn ? { json: me() } : refusal(401, 'Inicia sesión en la consola de socios para continuar.')),
      'POST /api/socios/passkey/options': { json: { publicKey: { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost', userVerification: 'required' } } },
      'POST /api/socios/passkey/verify': () => {
        signedIn = true
        return { json: { success: true, authenticated: true, message: 'Entraste a la consola de socios.' } }
      },
      'GET /api/socios/keys': { json: testKeys },
    })
    webauthn.startAuthentication.mockResolvedValue({ id: 'Y3JlZA', rawId: 'Y3JlZA', type: 'public-key', response: {}, clientExtensionResults: {} })
    const { user } = renderRouteWithUser('/socios')

    expect(await screen.findByRole('heading', { name: 'Consola de socios' })).toBeInTheDocument()
    expect(screen.queryByLabelText(/contraseña/i)).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Entrar con llave de acceso' }))

    expect(await screen.findByRole('heading', { name: 'CasaLista' })).toBeInTheDocument()
    expect(screen.getByTestId('console-identity')).toHaveTextContent('Laura Ríos · laura@casalista.mx · Propietario')
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Llaves', 'Webhooks', 'Entregas', 'Sesiones', 'Operaciones', 'Avisos', 'Listas', 'Bandeja de prueba', 'Uso', 'Equipo'])
    const verify = calls.find((c) => c.path === '/api/socios/passkey/verify')
    expect(verify?.body).toMatchObject({ id: 'Y3JlZA', type: 'public-key' })
  })

  it('says what went wrong when the passkey is refused', async () => {
    mockApi({
      'GET /api/socios/me': refusal(401, 'Inicia sesión.'),
      'POST /api/socios/passkey/options': { json: { publicKey: { challenge: 'Y2hhbGxlbmdl' } } },
      'POST /api/socios/passkey/verify': refusal(401, 'No reconocemos esta llave de acceso en la consola de socios. Usa la que registraste con tu enlace o pide uno nuevo.'),
    })
    webauthn.startAuthentication.mockResolvedValue({ id: 'eA', rawId: 'eA', type: 'public-key', response: {}, clientExtensionResults: {} })
    const { user } = renderRouteWithUser('/socios')
    await user.click(await screen.findByRole('button', { name: 'Entrar con llave de acceso' }))
    expect(await screen.findByText(/No reconocemos esta llave de acceso/)).toBeInTheDocument()
  })

  it('filters keys by the Prueba / Producción switch and shows a new secret key once, with a copy button', async () => {
    const { calls } = consoleApi('desarrollador', {
      'POST /api/socios/keys': (body) => ({
        status: 201,
        json: { ...key(9, false, 'secret', 'sk_test_…beef'), key: 'sk_test_0123456789abcdef0123456789abcdef0123456789abbeef', ...(body as object) },
      }),
    })
    const { user } = renderRouteWithUser('/socios')

    expect(await screen.findByText('sk_test_…9f3a')).toBeInTheDocument()
    expect(screen.getByTestId('mode-badge')).toHaveTextContent('Viendo datos de prueba')
    await user.click(screen.getByRole('checkbox', { name: 'Ver datos de producción' }))
    expect(await screen.findByText('sk_live_…c0de')).toBeInTheDocument()
    expect(screen.queryByText('sk_test_…9f3a')).not.toBeInTheDocument()
    const revoked = screen.getAllByTestId('key-row')[1]
    expect(within(revoked).getByText(/Revocada/)).toBeInTheDocument()
    expect(calls.some((c) => c.path === '/api/socios/keys' && c.url.searchParams.get('mode') === 'live')).toBe(true)

    await user.click(screen.getByRole('checkbox', { name: 'Ver datos de producción' }))
    await user.click(await screen.findByRole('button', { name: 'Crear llave secreta' }))
    const dialog = await screen.findByTestId('secret-dialog')
    expect(dialog).toHaveTextContent('Guárdala ahora: no volverás a verla.')
    expect(within(dialog).getByTestId('secret-value')).toHaveTextContent('sk_test_0123456789abcdef0123456789abcdef0123456789abbeef')
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/socios/keys')?.body).toEqual({ kind: 'secret', mode: 'test' })
    await user.click(within(dialog).getByRole('button', { name: 'Copiar la llave' }))
    expect(await navigator.clipboard.readText()).toBe('sk_test_0123456789abcdef0123456789abcdef0123456789abbeef')
    expect(within(dialog).getByRole('button', { name: 'la llave copiada' })).toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: 'Entendido' }))
    await waitFor(() => expect(screen.queryByTestId('secret-dialog')).not.toBeInTheDocument())
  })

  it('revokes a key after a confirmation', async () => {
    const { calls } = consoleApi('propietario', {
      'POST /api/socios/keys/1/revoke': { json: key(1, false, 'secret', 'sk_test_…9f3a', '2026-11-24T18:00:00Z') },
    })
    const { user } = renderRouteWithUser('/socios')
    await user.click(await screen.findByRole('button', { name: 'Revocar sk_test_…9f3a' }))
    expect(await screen.findByText('¿Revocar esta llave?')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Revocar llave' }))
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/socios/keys/1/revoke')).toBe(true))
    expect(await screen.findByText('Llave revocada')).toBeInTheDocument()
  })

  it('shows lectura everything but no way to change it', async () => {
    consoleApi('lectura')
    const { user } = renderRouteWithUser('/socios')
    expect(await screen.findByText('sk_test_…9f3a')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Crear llave/ })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Revocar/ })).not.toBeInTheDocument()
    expect(screen.getByTestId('console-origin')).toHaveTextContent('https://www.casalista.mx')
    await user.click(screen.getByRole('tab', { name: 'Webhooks' }))
    expect(await screen.findByText('https://api.casalista.mx/hooks')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Rotar secreto' })).not.toBeInTheDocument()
    await user.click(screen.getByRole('tab', { name: 'Equipo' }))
    expect(await screen.findByTestId('team-row')).toHaveTextContent('Laura Ríos')
    expect(screen.queryByRole('button', { name: 'Invitar' })).not.toBeInTheDocument()
  })

  it('saves the allowed origin and shows the server’s refusal beside the field', async () => {
    const { calls } = consoleApi('desarrollador', {
      'PUT /api/socios/origin': (body) =>
        (body as { origin: string }).origin.includes('intrusa')
          ? { status: 409, json: { message: 'Otra plataforma ya registró ese origen. Si es tuyo, escribe a soporte.', errors: { origin: 'Otra plataforma ya registró ese origen.' } } }
          : { json: { origin: 'https://app.casalista.mx', message: 'Origen guardado.' } },
    })
    const { user } = renderRouteWithUser('/socios')
    const field = await screen.findByLabelText('Origen')
    await user.clear(field)
    await user.type(field, 'https://intrusa.mx')
    await user.click(screen.getByRole('button', { name: 'Guardar origen' }))
    expect(await screen.findByText('Otra plataforma ya registró ese origen.')).toBeInTheDocument()
    await user.clear(field)
    await user.type(field, 'app.casalista.mx')
    await user.click(screen.getByRole('button', { name: 'Guardar origen' }))
    await waitFor(() => expect(field).toHaveValue('https://app.casalista.mx'))
    expect(calls.filter((c) => c.method === 'PUT' && c.path === '/api/socios/origin').map((c) => c.body)).toEqual([
      { origin: 'https://intrusa.mx' },
      { origin: 'app.casalista.mx' },
    ])
  })

  it('shows how to prove the origin and asks for a check; after it, that the origin is proven (issue 54 item 12)', async () => {
    let proven = false
    const { calls } = consoleApi('desarrollador', {
      'GET /api/socios/origin': () => ({
        json: proven
          ? { ...originProof, proven: true, provenAt: '2026-11-20T18:00:00Z', checkedAt: '2026-11-20T18:00:00Z' }
          : { ...originProof, checkedAt: '2026-11-19T18:00:00Z', checkError: 'No encontramos el registro TXT en el DNS de tu dominio.' },
      }),
      'POST /api/socios/origin/verify': () => {
        proven = true
        return { status: 202, json: { ...originProof, message: 'Revisaremos tu registro TXT y tu archivo de verificación en unos segundos.' } }
      },
    })
    const { user } = renderRouteWithUser('/socios')
    const panel = await screen.findByTestId('origin-proof')
    expect(within(panel).getByText('Origen sin verificar')).toBeInTheDocument()
    expect(panel).toHaveTextContent('Tus llaves de producción funcionarán cuando verifiquemos que controlas este origen')
    expect(panel).toHaveTextContent('No encontramos el registro TXT en el DNS de tu dominio.')
    expect(within(panel).getByTestId('origin-txt')).toHaveTextContent(originProof.txtValue)
    expect(panel).toHaveTextContent(originProof.fileUrl)
    await user.click(within(panel).getByRole('button', { name: 'Copiar el valor del registro' }))
    expect(await navigator.clipboard.readText()).toBe(originProof.txtValue)

    await user.click(within(panel).getByRole('button', { name: 'Verificar ahora' }))
    expect(await screen.findByText('Revisión pedida')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/socios/origin/verify')).toBe(true)
    expect(await screen.findByText('Origen verificado', {}, { timeout: 6000 })).toBeInTheDocument()
    expect(screen.getByTestId('origin-proof')).toHaveTextContent('(hora de la Ciudad de México)')
  })

  it('a reader sees the origin’s proof but cannot ask for a check', async () => {
    consoleApi('lectura')
    renderRoute('/socios')
    const panel = await screen.findByTestId('origin-proof')
    expect(within(panel).getByText('Origen sin verificar')).toBeInTheDocument()
    expect(within(panel).queryByRole('button', { name: 'Verificar ahora' })).not.toBeInTheDocument()
  })

  it('rotates the webhook secret: the new one once, and until when the old one still signs', async () => {
    const until = '2026-11-26T18:00:00Z'
    const { calls } = consoleApi('desarrollador', {
      'POST /api/socios/webhook/rotate': {
        json: { url: 'https://api.casalista.mx/hooks', hasSecret: true, previousSecretUntil: until, secret: 'whsec_nuevo0123', message: 'Nuevo secreto.' },
      },
    })
    const { user } = renderRouteWithUser('/socios')
    await user.click(await screen.findByRole('tab', { name: 'Webhooks' }))
    await user.click(await screen.findByRole('button', { name: 'Rotar secreto' }))
    expect(await screen.findByText(/seguirá firmando 24 horas más/)).toBeInTheDocument()
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Rotar secreto' }))
    const dialog = await screen.findByTestId('secret-dialog')
    expect(within(dialog).getByTestId('secret-value')).toHaveTextContent('whsec_nuevo0123')
    expect(dialog).toHaveTextContent('Guárdalo ahora: no volverás a verlo.')
    expect(dialog).toHaveTextContent('El secreto anterior sigue firmando hasta el 26/11/2026 12:00 (hora de la Ciudad de México)')
    await user.click(within(dialog).getByRole('button', { name: 'Entendido' }))
    expect(await screen.findByTestId('secret-overlap')).toHaveTextContent('26/11/2026 12:00')
    expect(screen.queryByText('whsec_nuevo0123')).not.toBeInTheDocument()
    expect(screenCalls(calls).filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/api/socios/webhook/rotate'])
  })

  it('lists deliveries with their last answer and resends one', async () => {
    const { calls } = consoleApi('desarrollador', {
      'GET /api/socios/deliveries': {
        json: {
          data: [
            { id: 12, event: 'verification_session.completed', status: 'retrying', attempts: 3, statusCode: 502, lastError: 'HTTP 502 Bad Gateway',
              createdAt: '2026-11-24T17:00:00Z', deliveredAt: null, nextAttemptAt: '2026-11-24T18:30:00Z' },
            { id: 11, event: 'profile.access_revoked', status: 'delivered', attempts: 1, statusCode: 200, lastError: null,
              createdAt: '2026-11-23T17:00:00Z', deliveredAt: '2026-11-23T17:00:01Z', nextAttemptAt: null },
          ],
          hasMore: false,
        },
      },
      'POST /api/socios/deliveries/12/resend': {
        json: { id: 12, event: 'verification_session.completed', status: 'retrying', attempts: 3, statusCode: 502, lastError: 'HTTP 502 Bad Gateway',
          createdAt: '2026-11-24T17:00:00Z', deliveredAt: null, nextAttemptAt: '2026-11-24T18:00:00Z' },
      },
    })
    const { user } = renderRouteWithUser('/socios')
    await user.click(await screen.findByRole('tab', { name: 'Entregas' }))
    const rows = await screen.findAllByTestId('delivery-row')
    expectTextContents(rows[0], ['verification_session.completed', 'Reintentando', 'HTTP 502 Bad Gateway'])
    expect(rows[1]).toHaveTextContent('Entregada')
    await user.click(within(rows[0]).getByRole('button', { name: 'Reenviar verification_session.completed #12' }))
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/socios/deliveries/12/resend')).toBe(true))
    expect(await screen.findByText('Reenvío en camino')).toBeInTheDocument()
  })

  it('says when there is nothing yet, and offers a retry when a list fails', async () => {
    let fail = true
    consoleApi('propietario', {
      'GET /api/socios/deliveries': () => (fail ? refusal(500, 'Error interno') : { json: { data: [], hasMore: false } }),
    })
    const { user } = renderRouteWithUser('/socios')
    await user.click(await screen.findByRole('tab', { name: 'Entregas' }))
    expect(await screen.findByText('Error interno')).toBeInTheDocument()
    fail = false
    await user.click(screen.getByRole('button', { name: 'Reintentar' }))
    expect(await screen.findByText('Aún no hay notificaciones para tu plataforma.')).toBeInTheDocument()
    await user.click(screen.getByRole('tab', { name: 'Sesiones' }))
    expect(await screen.findByText(/Aún no hay sesiones de prueba/)).toBeInTheDocument()
  })

  it('shows each session’s status, level and only what was shared, in the chosen mode', async () => {
    const { calls } = consoleApi('lectura', {
      'GET /api/socios/sessions': (_b, url) => ({
        json: {
          mode: url.searchParams.get('mode'),
          hasMore: false,
          data:
            url.searchParams.get('mode') === 'live'
              ? [
                  { id: 'vs_000000000000000000000001', status: 'completed', reference: 'caso-1', requiredLevel: 3, claims: ['name', 'profileId'],
                    shared: { name: 'María Fernanda López', profileId: 'PS-1234-5678-90' }, createdAt: '2026-11-24T17:00:00Z',
                    expiresAt: '2026-11-25T17:00:00Z', endedAt: '2026-11-24T17:05:00Z' },
                  { id: 'vs_000000000000000000000002', status: 'declined', reference: 'caso-2', requiredLevel: 2, claims: ['level'],
                    createdAt: '2026-11-24T16:00:00Z', expiresAt: '2026-11-25T16:00:00Z', endedAt: '2026-11-24T16:01:00Z' },
                  { id: 'vs_000000000000000000000003', status: 'completed', reference: 'caso-3', requiredLevel: 2, claims: ['name'],
                    shared: null, sharedReason: 'withdrawn', createdAt: '2026-11-24T15:00:00Z', expiresAt: '2026-11-25T15:00:00Z',
                    endedAt: '2026-11-24T15:01:00Z' },
                  { id: 'vs_000000000000000000000004', status: 'completed', reference: 'caso-4', requiredLevel: 2, claims: ['name'],
                    shared: null, sharedReason: 'deleted', createdAt: '2026-11-24T14:00:00Z', expiresAt: '2026-11-25T14:00:00Z',
                    endedAt: '2026-11-24T14:01:00Z' },
                ]
              : [],
        },
      }),
    })
    const { user } = renderRouteWithUser('/socios')
    await user.click(await screen.findByRole('tab', { name: 'Sesiones' }))
    await screen.findByText(/Aún no hay sesiones de prueba/)
    await user.click(screen.getByRole('checkbox', { name: 'Ver datos de producción' }))
    const rows = await screen.findAllByTestId('session-row')
    expectTextContents(rows[0], [
      'caso-1',
      'Completada',
      'Nivel 3 · biométrico',
      'NombreMaría Fernanda López',
      'ID de perfilPS-1234-5678-90',
    ])
    expect(rows[1]).toHaveTextContent('Rechazada')
    expect(rows[1]).toHaveTextContent('Nada (pediste: Nivel)')
    // Issue 54: after a withdrawal or a deletion, the status only and why.
    expect(rows[2]).toHaveTextContent('Completada')
    expect(rows[2]).toHaveTextContent('Ya no disponible: la persona retiró el acceso de tu plataforma')
    expect(rows[3]).toHaveTextContent('Ya no disponible: la persona eliminó su cuenta')
    expect(calls.filter((c) => c.path === '/api/socios/sessions').map((c) => c.url.searchParams.get('mode'))).toEqual(['test', 'live'])
  })

  it('shows the messages of the test people in the test inbox, and says when there are none', async () => {
    let messages: unknown[] = []
    consoleApi('lectura', { 'GET /api/socios/test-inbox': () => ({ json: { data: messages } }) })
    const { user } = renderRouteWithUser('/socios')
    await user.click(await screen.findByRole('tab', { name: 'Bandeja de prueba' }))
    expect(await screen.findByText(/Aún no hay mensajes/)).toBeInTheDocument()
    messages = [
      { id: 7, channel: 'whatsapp', recipient: '+525512345678', text: '482913 es tu código de verificación de Perfil Seguro.', createdAt: '2026-11-25T18:00:00Z' },
    ]
    // The tab looks again by itself: a developer waits for a code without reloading.
    expect(await screen.findByText('482913 es tu código de verificación de Perfil Seguro.', {}, { timeout: 5000 })).toBeInTheDocument()
    expect(screen.getByText('+525512345678')).toBeInTheDocument()
    expect(screen.getByText('WhatsApp')).toBeInTheDocument()
    expect(screen.getByText('25/11/2026 12:00')).toBeInTheDocument()
  })

  it('shows the requests counted and the sessions per month', async () => {
    consoleApi('lectura', {
      'GET /api/socios/usage': (_b, url) => ({
        json: {
          mode: url.searchParams.get('mode'),
          requestsCount: 12345,
          lastUsedAt: '2026-11-24T17:00:00Z',
          months: [
            { month: '2026-11', opened: 40, completed: 30, declined: 4 },
            { month: '2026-10', opened: 0, completed: 0, declined: 0 },
          ],
        },
      }),
    })
    const { user } = renderRouteWithUser('/socios')
    await user.click(await screen.findByRole('tab', { name: 'Uso' }))
    expect(await screen.findByTestId('usage-requests')).toHaveTextContent('12,345')
    const rows = screen.getAllByTestId('usage-row')
    expect(rows[0]).toHaveTextContent('40')
    expect(rows[0]).toHaveTextContent('75 %')
    expect(rows[1]).toHaveTextContent('—')
  })

  it('lets a propietario invite someone and shows the enrolment link once', async () => {
    const { calls } = consoleApi('propietario', {
      'POST /api/socios/users': {
        status: 201,
        json: {
          user: { ...me().user, id: 8, email: 'dev@casalista.mx', name: 'Diego', role: 'desarrollador', enrolled: false, lastSignInAt: null },
          enrolmentUrl: 'http://localhost:8080/socios/registro?token=' + 'a'.repeat(64),
          expiresAt: '2026-12-01T18:00:00Z',
          message: 'Comparte este enlace solo con Diego.',
        },
      },
    })
    const { user } = renderRouteWithUser('/socios')
    await user.click(await screen.findByRole('tab', { name: 'Equipo' }))
    await user.type(await screen.findByLabelText('Correo'), 'no-es-correo')
    await user.click(screen.getByRole('button', { name: 'Invitar' }))
    expect(await screen.findByText('Email inválido')).toBeInTheDocument()
    expect(screen.getByText('Escribe el nombre (de 2 a 120 caracteres)')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/socios/users')).toBe(false)

    await user.clear(screen.getByLabelText('Correo'))
    await user.type(screen.getByLabelText('Correo'), 'dev@casalista.mx')
    await user.type(screen.getByLabelText('Nombre'), 'Diego')
    await user.click(screen.getByRole('button', { name: 'Invitar' }))
    const dialog = await screen.findByTestId('secret-dialog')
    expect(within(dialog).getByTestId('secret-value')).toHaveTextContent('/socios/registro?token=aaaa')
    expect(dialog).toHaveTextContent('Guárdalo ahora: no volverás a verlo.')
    expect(dialog).toHaveTextContent('Compártelo solo con Diego (dev@casalista.mx)')
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/socios/users')?.body).toEqual({
      email: 'dev@casalista.mx',
      name: 'Diego',
      role: 'desarrollador',
    })
  })

  it('goes back to the sign-in when the session ends', async () => {
    consoleApi('propietario', { 'GET /api/socios/keys': refusal(401, 'Inicia sesión en la consola de socios para continuar.') })
    renderRoute('/socios')
    expect(await screen.findByRole('button', { name: 'Entrar con llave de acceso' })).toBeInTheDocument()
  })

  it('signs out', async () => {
    let out = false
    const { calls } = consoleApi('propietario', {
      'GET /api/socios/me': () => (out ? refusal(401, 'Inicia sesión.') : { json: me() }),
      'POST /api/socios/logout': () => {
        out = true
        return { json: { success: true, authenticated: false, message: 'Cerraste tu sesión de la consola.' } }
      },
    })
    const { user } = renderRouteWithUser('/socios')
    await user.click(await screen.findByRole('button', { name: 'Cerrar sesión' }))
    expect(await screen.findByRole('button', { name: 'Entrar con llave de acceso' })).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/socios/logout')).toBe(true)
  })
})
