import { screen, waitFor } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { mockApi, screenCalls } from '@/testing/mock-api'
import { renderRoute, renderRouteWithUser } from '@/testing/render-route'

// The browser side of WebAuthn is @simplewebauthn/browser; these tests play it.
const webauthn = vi.hoisted(() => ({
  startAuthentication: vi.fn(),
  autofill: false,
}))

vi.mock('@simplewebauthn/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@simplewebauthn/browser')>()
  return {
    ...actual,
    browserSupportsWebAuthn: () => true,
    browserSupportsWebAuthnAutofill: async () => webauthn.autofill,
    startAuthentication: webauthn.startAuthentication,
  }
})

const options = { publicKey: { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost', userVerification: 'required' } }
const assertion = {
  id: 'Y3JlZA',
  rawId: 'Y3JlZA',
  type: 'public-key',
  response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA', userHandle: 'dXNlcjo3' },
  clientExtensionResults: {},
}
const signedIn = {
  success: true,
  verified: true,
  message: 'Tu identidad ha sido verificada correctamente.',
  userId: 7,
  profileId: 'PS-1111-2222-33',
  data: { userId: 7, verified: true, verification_level: 1, verificationType: 'passkey', nextStep: 'biometric_verification' },
}

describe('/login with a passkey', () => {
  beforeEach(() => {
    webauthn.startAuthentication.mockReset()
    webauthn.autofill = false
  })

  it('signs in without a phone or an e-mail, stores the user as a code sign-in does and goes to /profile', async () => {
    const { calls } = mockApi({
      'POST /api/auth/passkey/options': { json: options },
      'POST /api/auth/passkey/verify': { json: signedIn },
    })
    webauthn.startAuthentication.mockResolvedValue(assertion)
    localStorage.setItem('pendingUserId', '3')
    const loggedIn = vi.fn()
    window.addEventListener('userLoggedIn', loggedIn)
    const { user, router } = renderRouteWithUser('/login')

    await user.click(await screen.findByRole('button', { name: 'Entrar con llave de acceso' }))

    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'))
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({ optionsJSON: options.publicKey, useBrowserAutofill: false })
    const sent = screenCalls(calls).filter((c) => c.path.startsWith('/api/auth/passkey'))
    expect(sent.map((c) => c.path)).toEqual(['/api/auth/passkey/options', '/api/auth/passkey/verify'])
    expect(sent[1].body).toEqual(assertion)
    expect(screenCalls(calls).some((c) => c.path === '/api/login')).toBe(false)
    expect(localStorage.getItem('userId')).toBe('7')
    expect(localStorage.getItem('pendingUserId')).toBeNull()
    expect(loggedIn).toHaveBeenCalled()
    window.removeEventListener('userLoggedIn', loggedIn)
  })

  it('says so in Spanish when the person cancels, and the code sign-in stays', async () => {
    const { calls } = mockApi({ 'POST /api/auth/passkey/options': { json: options } })
    webauthn.startAuthentication.mockRejectedValue(Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' }))
    const { user, router } = renderRouteWithUser('/login')

    await user.click(await screen.findByRole('button', { name: 'Entrar con llave de acceso' }))

    expect(await screen.findByText(/Cancelaste la llave de acceso/)).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/login')
    expect(screenCalls(calls).some((c) => c.path === '/api/auth/passkey/verify')).toBe(false)
    expect(screen.getByRole('button', { name: 'Enviar código' })).toBeEnabled()
    expect(localStorage.getItem('userId')).toBeNull()
  })

  it("shows the server's message when the passkey is unknown", async () => {
    mockApi({
      'POST /api/auth/passkey/options': { json: options },
      'POST /api/auth/passkey/verify': {
        status: 401,
        json: { message: 'No reconocemos esta llave de acceso. Entra con tu código y crea una nueva.' },
      },
    })
    webauthn.startAuthentication.mockResolvedValue(assertion)
    const { user } = renderRouteWithUser('/login')

    await user.click(await screen.findByRole('button', { name: 'Entrar con llave de acceso' }))

    expect(await screen.findByText('No reconocemos esta llave de acceso. Entra con tu código y crea una nueva.')).toBeInTheDocument()
    expect(localStorage.getItem('userId')).toBeNull()
  })

  it('offers the passkeys in the e-mail field where the browser can (conditional UI)', async () => {
    webauthn.autofill = true
    mockApi({
      'POST /api/auth/passkey/options': { json: options },
      'POST /api/auth/passkey/verify': { json: signedIn },
    })
    webauthn.startAuthentication.mockResolvedValue(assertion)
    const { router } = renderRoute('/login')

    expect(await screen.findByLabelText('Correo electrónico (opcional)')).toHaveAttribute('autocomplete', 'username webauthn')
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'))
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({ optionsJSON: options.publicKey, useBrowserAutofill: true })
    expect(localStorage.getItem('userId')).toBe('7')
  })

  it('says nothing when the suggestions cannot offer passkeys (the person asked for nothing)', async () => {
    webauthn.autofill = true
    const { calls } = mockApi({
      'POST /api/auth/passkey/options': {
        status: 503,
        json: { message: 'Las llaves de acceso no están disponibles en este momento.' },
      },
    })
    renderRoute('/login')

    expect(await screen.findByRole('button', { name: 'Entrar con llave de acceso' })).toBeEnabled()
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/auth/passkey/options')).toHaveLength(1))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(screen.queryByText('No pudiste entrar con tu llave')).not.toBeInTheDocument()
    expect(screen.queryByText('Las llaves de acceso no están disponibles en este momento.')).not.toBeInTheDocument()
    expect(webauthn.startAuthentication).not.toHaveBeenCalled()
  })
})
