import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mockApi, refusal, screenCalls } from '@/testing/mock-api'
import { renderRoute } from '@/testing/render-route'
import { hostedSecret as secret, hostedSessionView } from '@/testing/hosted-session'

const view = hostedSessionView({
  livemode: false,
  claims: [
    { key: 'name', label: 'Tu nombre completo', value: 'Lucía Pérez' },
    { key: 'validUntil', label: 'La vigencia de tu validación', value: '2031-03-07T12:00:00Z' },
  ],
  signedIn: true,
  level: 3,
  blocker: '',
})

afterEach(() => {
  Object.defineProperty(window, 'opener', { value: null, configurable: true, writable: true })
  window.sessionStorage.clear()
  vi.restoreAllMocks()
})

describe('/conectar', () => {
  it('takes the client secret once, lists exactly the claims, and tells only the partner origin the outcome', async () => {
    const opener = { postMessage: vi.fn() }
    Object.defineProperty(window, 'opener', { value: opener, configurable: true, writable: true })
    window.history.replaceState(null, '', `/conectar?pk=pk_test_0123456789abcdef01234567#${secret}`)
    const { calls } = mockApi({
      'POST /api/hosted/open': { json: { flowToken: 'f'.repeat(64), session: view } },
      'POST /api/hosted/decision': { json: { id: view.id, status: 'completed' } },
    })
    renderRoute('/conectar')
    expect(await screen.findByText('Verificación para CasaLista (demo)')).toBeInTheDocument()
    expect(screen.getByText('Modo de prueba')).toBeInTheDocument()
    expect(screen.getByText('Compartir con CasaLista (demo):')).toBeInTheDocument()
    expect(screen.getByText(/Lucía Pérez/)).toBeInTheDocument()
    expect(screen.getByText(/07\/03\/2031 \(hora de la Ciudad de México\)/)).toBeInTheDocument()
    expect(window.location.hash).toBe('') // the secret leaves the address bar
    const open = screenCalls(calls).find((c) => c.path === '/api/hosted/open')
    expect(open?.body).toMatchObject({ clientSecret: secret, publishableKey: 'pk_test_0123456789abcdef01234567' })

    await userEvent.click(screen.getByRole('button', { name: 'Compartir' }))
    expect(await screen.findByText('Listo: compartiste tus datos.')).toBeInTheDocument()
    const decision = screenCalls(calls).find((c) => c.path === '/api/hosted/decision')
    expect(decision?.body).toEqual({ share: true, claims: ['name', 'validUntil'] })
    expect(new Headers(decision?.init?.headers).get('X-Flow-Token')).toBe('f'.repeat(64))
    expect(opener.postMessage).toHaveBeenCalledWith({ type: 'perfilseguro:session', id: view.id, status: 'completed' }, 'http://127.0.0.1:8081')
    expect(window.sessionStorage.getItem('ps_hosted_flow')).toBeNull()
  })

  it('asks a signed-out person to sign in, and lets them decline without an account', async () => {
    window.history.replaceState(null, '', `/conectar?pk=pk_live_0123456789abcdef01234567#${secret}`)
    const signedOut = { ...view, livemode: true, signedIn: false, blocker: 'Inicia sesión o regístrate para continuar.', claims: view.claims.map(({ key, label }) => ({ key, label })) }
    const { calls } = mockApi({
      'POST /api/hosted/open': { json: { flowToken: 'e'.repeat(64), session: signedOut } },
      'POST /api/hosted/decision': { json: { id: view.id, status: 'declined' } },
    })
    renderRoute('/conectar')
    expect(await screen.findByText('Verificación para CasaLista (demo)')).toBeInTheDocument()
    const card = screen.getByText('Compartir con CasaLista (demo):').closest('.card') as HTMLElement
    expect(within(card).getByRole('link', { name: 'Iniciar Sesión' })).toHaveAttribute('href', '/login')
    expect(screen.queryByText('Modo de prueba')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Compartir' })).toBeDisabled()
    expect(screen.queryByText(/Lucía/)).not.toBeInTheDocument()
    expect(JSON.parse(window.sessionStorage.getItem('ps_hosted_flow') ?? '{}').token).toBe('e'.repeat(64))
    await userEvent.click(screen.getByRole('button', { name: 'No compartir' }))
    expect(await screen.findByText('No compartiste nada.')).toBeInTheDocument()
    await waitFor(() => expect(screenCalls(calls).find((c) => c.path === '/api/hosted/decision')?.body).toEqual({ share: false }))
  })

  it('offers an account of the other mode to sign out here, then to sign in or register', async () => {
    window.history.replaceState(null, '', `/conectar?pk=pk_test_0123456789abcdef01234567#${secret}`)
    const blocker = 'Esta es una verificación de prueba de CasaLista (demo): cierra sesión y entra o regístrate aquí con una cuenta de prueba (no se usará tu perfil real).'
    const liveAccount = { ...view, blocker, signOutToContinue: true }
    const signedOut = { ...view, signedIn: false, blocker: 'Inicia sesión o regístrate para continuar.', claims: view.claims.map(({ key, label }) => ({ key, label })) }
    const { calls } = mockApi({
      'POST /api/hosted/open': { json: { flowToken: 'd'.repeat(64), session: liveAccount } },
      'POST /api/logout': { json: { success: true } },
      'GET /api/hosted/session': { json: signedOut },
    })
    renderRoute('/conectar')
    expect(await screen.findByText(blocker)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Compartir' })).toBeDisabled()
    expect(screen.queryByRole('link', { name: 'Ir a Mi Perfil' })).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Cerrar sesión' }))
    const card = (await screen.findByText('Compartir con CasaLista (demo):')).closest('.card') as HTMLElement
    expect(await within(card).findByRole('link', { name: 'Registrarse' })).toHaveAttribute('href', '/register')
    expect(screen.queryByText(blocker)).not.toBeInTheDocument()
    expect(screenCalls(calls).some((c) => c.path === '/api/logout')).toBe(true)
    const reread = screenCalls(calls).find((c) => c.path === '/api/hosted/session')
    expect(new Headers(reread?.init?.headers).get('X-Flow-Token')).toBe('d'.repeat(64))
  })

  it('is a focused flow: no site navigation, developer banner or footer links, only the privacy notice link', async () => {
    Object.defineProperty(window, 'opener', { value: { postMessage: vi.fn() }, configurable: true, writable: true })
    window.history.replaceState(null, '', `/conectar?pk=pk_test_0123456789abcdef01234567#${secret}`)
    mockApi({ 'POST /api/hosted/open': { json: { flowToken: 'c'.repeat(64), session: view, openerConfirmed: true } } })
    renderRoute('/conectar')
    expect(await screen.findByText('Verificación para CasaLista (demo)')).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 1, name: 'Verificación de identidad' })).toBeInTheDocument()
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument()
    expect(screen.queryByTestId('developer-banner')).not.toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Términos y condiciones' })).not.toBeInTheDocument()
    expect(screen.getAllByRole('link', { name: /Aviso de privacidad/ })[0]).toHaveAttribute('href', '/privacidad')
    // The opener was confirmed (its origin, and the popup still has it): no warning.
    expect(screen.queryByText('Comprueba quién te pide tus datos')).not.toBeInTheDocument()
  })

  it.each([
    ['the browser did not name the opening page', false, true],
    ['the popup has no opener', true, false],
  ])('warns before sharing, naming the platform and its domain, when %s', async (_case, openerConfirmed, hasOpener) => {
    Object.defineProperty(window, 'opener', { value: hasOpener ? { postMessage: vi.fn() } : null, configurable: true, writable: true })
    window.history.replaceState(null, '', `/conectar?pk=pk_test_0123456789abcdef01234567#${secret}`)
    mockApi({ 'POST /api/hosted/open': { json: { flowToken: 'c'.repeat(64), session: view, openerConfirmed } } })
    renderRoute('/conectar')
    const warning = (await screen.findByText('Comprueba quién te pide tus datos')).closest('[role="alert"], .alert') as HTMLElement
    expect(within(warning).getByText('CasaLista (demo)')).toBeInTheDocument()
    expect(within(warning).getByText('127.0.0.1:8081')).toBeInTheDocument()
    // It comes before the button that shares.
    const share = screen.getByRole('button', { name: 'Compartir' })
    expect(warning.compareDocumentPosition(share) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    // And it stays when the flow is resumed in this tab (after signing in).
    expect(JSON.parse(window.sessionStorage.getItem('ps_hosted_flow') ?? '{}').openerConfirmed).toBe(false)
  })

  it('says so when the secret was already used', async () => {
    window.history.replaceState(null, '', `/conectar?pk=pk_live_0123456789abcdef01234567#${secret}`)
    mockApi({ 'POST /api/hosted/open': refusal(409, 'Esta solicitud de verificación ya no es válida.') })
    renderRoute('/conectar')
    expect(await screen.findByText('Esta solicitud de verificación ya no es válida.')).toBeInTheDocument()
  })

  it('in the redirect variant goes back to the returnUrl, or says where to go back when there is none', async () => {
    const assign = vi.fn()
    Object.defineProperty(window, 'location', { value: { ...window.location, assign, hash: `#${secret}`, search: '?pk=pk_live_0123456789abcdef01234567&mode=redirect', pathname: '/conectar', href: `http://localhost/conectar?mode=redirect#${secret}` }, configurable: true, writable: true })
    const noReturn = { ...view, livemode: true }
    mockApi({
      'POST /api/hosted/open': { json: { flowToken: 'd'.repeat(64), session: noReturn } },
      'POST /api/hosted/decision': { json: { id: view.id, status: 'declined' } },
    })
    renderRoute('/conectar')
    await userEvent.click(await screen.findByRole('button', { name: 'No compartir' }))
    expect(await screen.findByText(`Ya puedes volver a CasaLista (demo) (http://127.0.0.1:8081).`)).toBeInTheDocument()
    expect(assign).not.toHaveBeenCalled()
  })
})
