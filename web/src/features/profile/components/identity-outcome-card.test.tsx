import { screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { IdentityOutcome } from '@/api/get-verification-status'
import { mockApi, refusal, type MockHandler } from '@/testing/mock-api'
import { renderRoute, renderRouteWithUser } from '@/testing/render-route'
import { baseProfileUser, paymentsOff, profileRoutes, profileUser } from '@/testing/profile-user'
import { identityWaits } from './use-biometric-polling'

vi.setConfig({ testTimeout: 30_000 })

// Issue 52: Mi Perfil says what the person's ID certified, one screen per verdict.

const outcome = (verdict: IdentityOutcome['verdict'], changes: Partial<IdentityOutcome> = {}): IdentityOutcome => ({
  verdict,
  documentName: 'Roberto Mendoza Salas',
  findings: [{ code: 'surname_differs', text: 'Los apellidos no coinciden.' }],
  checkedAt: '2026-11-27T18:00:00Z',
  resolution: null,
  ...changes,
})

const confirmationRoutes: Record<string, MockHandler> = {
  'POST /api/users/7/confirmation-code': {
    status: 202,
    json: { message: 'Te enviamos un código por WhatsApp al +52 •• •••• 4321.', channel: 'phone', verificationCode: '135790' },
  },
  'POST /api/users/7/confirmation': { json: { confirmedUntil: new Date(Date.now() + 5 * 60_000).toISOString() } },
}

/** Mi Perfil of person 7 (Ana López, level 1) whose latest check's ID gave identity. */
function api(identity: IdentityOutcome | null, extra: Record<string, MockHandler> = {}, status: Record<string, unknown> = {}) {
  return mockApi({
    ...profileRoutes(baseProfileUser, { lastBiometricStatus: 'Approved', identity, nameFromDocument: false, ...status }),
    'GET /api/payments/status': paymentsOff,
    ...confirmationRoutes,
    ...extra,
  })
}

describe('Mi Perfil: what the ID certified', () => {
  beforeEach(() => localStorage.setItem('userId', '7'))

  it('says under the name that it came from the ID after a match, and shows no other screen', async () => {
    const validated = profileUser({ nombre: 'Ana María López Soto', verificationLevel: 3, biometricVerified: true })
    mockApi({
      ...profileRoutes(validated, { lastBiometricStatus: 'Approved', identity: outcome('match'), nameFromDocument: true }),
      'GET /api/payments/status': paymentsOff,
    })
    renderRoute('/profile')
    expect(await screen.findByText('Tomamos tu nombre de tu identificación oficial.')).toBeInTheDocument()
    expect(screen.getByTestId('name-from-document').closest('dd')).toHaveTextContent('Ana María López Soto')
    expect(screen.queryByTestId('identity-outcome')).not.toBeInTheDocument()
  })

  it('says nothing of the ID before any check, nor of a typed name', async () => {
    api(null, {}, { lastBiometricStatus: null })
    renderRoute('/profile')
    expect(await screen.findByRole('button', { name: 'Completar Verificación' })).toBeInTheDocument()
    expect(screen.queryByTestId('identity-outcome')).not.toBeInTheDocument()
    expect(screen.queryByText('Tomamos tu nombre de tu identificación oficial.')).not.toBeInTheDocument()
  })

  it('on a mismatch shows both names and adopts the ID’s name only after a confirmation by code', async () => {
    let adopted = false
    const { calls } = mockApi({
      'GET /api/users/7': () => ({
        json: adopted ? profileUser({ nombre: 'Roberto Mendoza Salas', verificationLevel: 3, biometricVerified: true }) : baseProfileUser,
      }),
      'GET /api/users/7/verification-status': () => ({
        json: adopted
          ? { verificationLevel: 3, biometricVerified: true, lastBiometricStatus: 'Approved', nameFromDocument: true,
              identity: outcome('mismatch', { resolution: 'adopted' }) }
          : { verificationLevel: 1, biometricVerified: false, lastBiometricStatus: 'Approved', nameFromDocument: false,
              identity: outcome('mismatch') },
      }),
      'GET /api/auth/status': { json: { authenticated: true } },
      'GET /api/payments/status': paymentsOff,
      ...confirmationRoutes,
      'POST /api/users/7/identity/adopt-document-name': () => {
        adopted = true
        return { json: profileUser({ nombre: 'Roberto Mendoza Salas', verificationLevel: 3, biometricVerified: true }) }
      },
    })
    const { user } = renderRouteWithUser('/profile')
    const card = await screen.findByTestId('identity-outcome')
    expect(card).toHaveAttribute('data-verdict', 'mismatch')
    expect(within(card).getByText('El nombre de tu registro no coincide con el de tu identificación.')).toBeInTheDocument()
    expect(within(card).getByTestId('typed-name')).toHaveTextContent('Ana López')
    expect(within(card).getByTestId('document-name')).toHaveTextContent('Roberto Mendoza Salas')
    expect(within(card).getByRole('link', { name: 'Contactar a soporte' })).toHaveAttribute('href', 'mailto:soporte@perfilseguro.mx')
    expect(screen.queryByText('Identidad verificada')).not.toBeInTheDocument()

    await user.click(within(card).getByRole('button', { name: 'Usar el nombre de mi identificación' }))
    expect(await within(card).findByText(/primero confirma que eres tú/)).toBeInTheDocument()
    expect(within(card).getByRole('button', { name: 'Confirmar con mi llave de acceso' })).toBeInTheDocument()
    expect(calls.some((c) => c.path === '/api/users/7/identity/adopt-document-name')).toBe(false)

    await user.click(within(card).getByRole('button', { name: 'Enviar código a mi contacto actual' }))
    await user.type(await within(card).findByLabelText('Código de confirmación'), '135790')
    await user.click(within(card).getByRole('button', { name: 'Confirmar código' }))

    await waitFor(() => expect(screen.queryByTestId('identity-outcome')).not.toBeInTheDocument())
    const confirmAt = calls.findIndex((c) => c.path === '/api/users/7/confirmation')
    const adoptAt = calls.findIndex((c) => c.method === 'POST' && c.path === '/api/users/7/identity/adopt-document-name')
    expect(confirmAt).toBeGreaterThanOrEqual(0)
    expect(adoptAt).toBeGreaterThan(confirmAt)
    expect(await screen.findByText('Tomamos tu nombre de tu identificación oficial.')).toBeInTheDocument()
    expect(screen.getByText(/Tu perfil ahora lleva el nombre de tu identificación: Roberto Mendoza Salas/)).toBeInTheDocument()
  })

  it('on a mismatch shows why the server refused to adopt (the ID is bound to another profile)', async () => {
    api(outcome('mismatch'), {
      'POST /api/users/7/identity/adopt-document-name': refusal(409, 'Esta identificación ya está vinculada a otro perfil.'),
    })
    const { user } = renderRouteWithUser('/profile')
    const card = await screen.findByTestId('identity-outcome')
    await user.click(within(card).getByRole('button', { name: 'Usar el nombre de mi identificación' }))
    await user.click(await within(card).findByRole('button', { name: 'Enviar código a mi contacto actual' }))
    await user.type(await within(card).findByLabelText('Código de confirmación'), '135790')
    await user.click(within(card).getByRole('button', { name: 'Confirmar código' }))
    expect(await within(card).findByText('Esta identificación ya está vinculada a otro perfil.')).toBeInTheDocument()
    expect(within(card).getByTestId('document-name')).toHaveTextContent('Roberto Mendoza Salas')
  })

  it('asks for the confirmation again when the server says it lapsed (403)', async () => {
    api(outcome('mismatch'), {
      'POST /api/users/7/identity/adopt-document-name': refusal(403, 'Antes de usar el nombre de tu identificación, confirma que eres tú.'),
    })
    const { user } = renderRouteWithUser('/profile')
    const card = await screen.findByTestId('identity-outcome')
    await user.click(within(card).getByRole('button', { name: 'Usar el nombre de mi identificación' }))
    await user.click(await within(card).findByRole('button', { name: 'Enviar código a mi contacto actual' }))
    await user.type(await within(card).findByLabelText('Código de confirmación'), '135790')
    await user.click(within(card).getByRole('button', { name: 'Confirmar código' }))
    expect(await within(card).findByText('Antes de usar el nombre de tu identificación, confirma que eres tú.')).toBeInTheDocument()
    expect(within(card).getByTestId('adopt-name-confirmation')).toBeInTheDocument()
  })

  it.each(['near', 'no_document'] as const)('on %s says a specialist is reviewing the ID', async (verdict) => {
    api(outcome(verdict))
    renderRoute('/profile')
    const card = await screen.findByTestId('identity-outcome')
    expect(card).toHaveAttribute('data-verdict', verdict)
    expect(within(card).getByText('En revisión')).toBeInTheDocument()
    expect(within(card).getByText('Un especialista está revisando tu identificación. Te avisaremos por correo.')).toBeInTheDocument()
    expect(within(card).queryByRole('button')).not.toBeInTheDocument()
  })

  it('on a duplicate says the ID is bound to another profile and how to recover it', async () => {
    api(outcome('duplicate'))
    renderRoute('/profile')
    const card = await screen.findByTestId('identity-outcome')
    expect(within(card).getByText('Esta identificación ya está vinculada a otro perfil.')).toBeInTheDocument()
    expect(
      within(card).getByText(
        'Si ese perfil es tuyo, entra con tu teléfono o correo (te enviamos un código), con tu llave de acceso, o escribe a soporte.',
      ),
    ).toBeInTheDocument()
    expect(within(card).getByRole('link', { name: 'soporte@perfilseguro.mx' })).toHaveAttribute('href', 'mailto:soporte@perfilseguro.mx')
    expect(within(card).queryByRole('button', { name: 'Usar el nombre de mi identificación' })).not.toBeInTheDocument()
  })

  it('on an expired ID asks for a new check with a valid one and starts it', async () => {
    const { calls } = api(outcome('expired_document'), {
      'POST /api/start-verification': { json: { verificationUrl: 'http://localhost/dev/biometric/x', sessionId: 1 } },
    })
    vi.stubGlobal('open', vi.fn(() => ({ location: { href: '' }, close: vi.fn() })))
    const { user } = renderRouteWithUser('/profile')
    const card = await screen.findByTestId('identity-outcome')
    expect(within(card).getByText('Tu identificación estaba vencida. Vuelve a verificarte con una identificación vigente.')).toBeInTheDocument()
    await user.click(within(card).getByRole('button', { name: 'Verificarme de nuevo' }))
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/start-verification')).toBe(true))
    vi.unstubAllGlobals()
  })

  it('on a minor says Perfil Seguro needs legal age', async () => {
    api(outcome('under_age'))
    renderRoute('/profile')
    const card = await screen.findByTestId('identity-outcome')
    expect(within(card).getByText('Para usar Perfil Seguro necesitas ser mayor de 18 años.')).toBeInTheDocument()
  })

  it('after an administrator declined the review says so, and nothing after an approval', async () => {
    api(outcome('near', { resolution: 'declined' }))
    const first = renderRoute('/profile')
    expect(await screen.findByTestId('identity-outcome')).toHaveAttribute('data-verdict', 'declined')
    first.unmount()

    api(outcome('near', { resolution: 'approved' }), {}, { nameFromDocument: true })
    renderRoute('/profile')
    expect(await screen.findByText('Tomamos tu nombre de tu identificación oficial.')).toBeInTheDocument()
    expect(screen.queryByTestId('identity-outcome')).not.toBeInTheDocument()
  })
})

describe('identityWaits (the biometric polling ends on it)', () => {
  it('is true for an open verdict other than match, false for a match or a settled one', () => {
    expect(identityWaits({ identity: outcome('mismatch') })).toBe(true)
    expect(identityWaits({ identity: outcome('near') })).toBe(true)
    expect(identityWaits({ identity: outcome('duplicate') })).toBe(true)
    expect(identityWaits({ identity: outcome('match') })).toBe(false)
    expect(identityWaits({ identity: outcome('mismatch', { resolution: 'adopted' }) })).toBe(false)
    expect(identityWaits({ identity: null })).toBe(false)
    expect(identityWaits({})).toBe(false)
  })
})
