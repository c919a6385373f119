import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { grantedConsents, mockApi, refusal, type MockHandler } from '@/testing/mock-api'
import { renderRoute } from '@/testing/render-route'
import { paymentsOff, profileRoutes, profileUser, signInProfile } from '@/testing/profile-user'
import { expectTextContents } from '@/testing/expect-text'

const webauthn = vi.hoisted(() => ({ startAuthentication: vi.fn() }))
vi.mock('@simplewebauthn/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@simplewebauthn/browser')>()
  return { ...actual, startAuthentication: webauthn.startAuthentication }
})

// These tests type a lot; give them room on a busy 2-core machine.
vi.setConfig({ testTimeout: 30_000 })

const baseUser = profileUser({ verificationLevel: 2 })

const validatedUser = {
  ...baseUser,
  verificationLevel: 3,
  biometricVerified: true,
  fecha_validacion: '2026-06-01T12:00:00Z',
  validUntil: '2027-06-01T12:00:00Z',
}

type Consents = ReturnType<typeof grantedConsents>

/** The consents with one purpose replaced. */
function withConsent(base: Consents, purpose: string, change: Record<string, unknown>): Consents {
  return { ...base, consents: base.consents.map((c) => (c.purpose === purpose ? { ...c, ...change } : c)) }
}

/** A primary purpose never decided on, as the server lists it. */
const missing = { granted: false, current: false, noticeVersion: null, recordedAt: null }

/** Mocks the profile of user 7 (with payments off); extra routes win. */
function api(extra: Record<string, MockHandler> = {}, user: Record<string, unknown> = baseUser) {
  return mockApi({ ...profileRoutes(user), 'GET /api/payments/status': paymentsOff, ...extra })
}

/** Opens /profile for user 7 signed in, with the default answers. */
function renderPlainProfile() {
  signInProfile()
  api()
  renderRoute('/profile')
}

/** Types value into field and presses the section's button named button. */
async function typeAndPress(section: HTMLElement, field: HTMLElement, value: string, button: string) {
  await userEvent.type(field, value)
  await userEvent.click(within(section).getByRole('button', { name: button }))
}

/** The confirmation from the current contact that a contact change starts with: a code, entered. */
const confirmationRoutes: Record<string, MockHandler> = {
  'POST /api/users/7/confirmation-code': {
    status: 202,
    json: { message: 'Te enviamos un código por WhatsApp al +52 •• •••• 4321.', verificationCode: '135790' },
  },
  'POST /api/users/7/confirmation': { json: { confirmedUntil: '2026-11-24T18:05:00Z' } },
}

/** Confirms in the rectification section with the code sent to the current contact. */
async function confirmContact(section: HTMLElement) {
  await userEvent.click(await within(section).findByRole('button', { name: 'Enviar código a mi contacto actual' }))
  await typeAndPress(section, await within(section).findByLabelText('Código de confirmación'), '135790', 'Confirmar código')
}

describe('/profile express biometric consent', () => {
  it('asks for the consent instead of the start button, and shows the button once given', async () => {
    signInProfile()
    let consents = withConsent(grantedConsents(), 'biometric', missing)
    const { calls } = api({
      'GET /api/users/7/consents': () => ({ json: consents }),
      'POST /api/users/7/consents': (body) => {
        consents = grantedConsents()
        return { status: 201, json: { ...(body as object), granted: true, current: true, secondary: false, noticeVersion: '2026-11', recordedAt: '2026-11-24T19:00:00Z' } }
      },
    })
    renderRoute('/profile')
    const card = await screen.findByTestId('biometric-consent')
    expect(within(card).getByRole('heading', { name: 'Consentimiento para datos biométricos' })).toBeInTheDocument()
    expectTextContents(card, ['video selfie', 'nunca las imágenes', 'proveedor biométrico', 'mientras tu cuenta exista'])
    const link = within(card).getByRole('link', { name: /Lee el aviso de privacidad/ })
    expect(link).toHaveAttribute('href', '/privacidad#datos')
    expect(link).toHaveAttribute('target', '_blank')
    expect(within(card).getByRole('link', { name: /tabla de conservación/ })).toHaveAttribute('href', '/privacidad#conservacion')
    // The spec's button stays in its place, disabled until the consent is recorded.
    expect(screen.getByRole('button', { name: 'Completar Verificación' })).toBeDisabled()

    const box = within(card).getByRole('checkbox', {
      name: 'Doy mi consentimiento expreso para que se traten mis datos biométricos para validar mi identidad.',
    })
    const grant = within(card).getByRole('button', { name: 'Otorgar consentimiento' })
    expect(box).not.toBeChecked()
    expect(grant).toBeDisabled()
    await userEvent.click(box)
    expect(grant).toBeEnabled()
    await userEvent.click(box)
    expect(grant).toBeDisabled()
    await userEvent.click(box)
    await userEvent.click(grant)

    await waitFor(() => expect(screen.getByRole('button', { name: 'Completar Verificación' })).toBeEnabled())
    expect(screen.queryByTestId('biometric-consent')).not.toBeInTheDocument()
    const posts = calls.filter((c) => c.method === 'POST' && c.path === '/api/users/7/consents')
    expect(posts.map((c) => c.body)).toEqual([{ purpose: 'biometric' }])
  })

  it('shows one consent card when the e-mail link continues to the biometric step', async () => {
    signInProfile()
    api({ 'GET /api/users/7/consents': { json: withConsent(grantedConsents(), 'biometric', missing) } })
    renderRoute('/profile?emailVerified=1&startBiometric=1')
    expect(await screen.findByTestId('biometric-consent')).toBeInTheDocument()
    expect(screen.getAllByTestId('biometric-consent')).toHaveLength(1)
    expect(screen.getByText('Para iniciar tu verificación biométrica, primero da tu consentimiento para datos biométricos.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Continuar con la verificación biométrica' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Completar Verificación' })).toBeDisabled()
  })

  it("shows the server's 409 when the biometric start is refused for want of consent", async () => {
    signInProfile()
    const popup = { location: { href: '' }, close: vi.fn() }
    vi.stubGlobal('open', vi.fn(() => popup))
    const refusal =
      'Falta tu consentimiento expreso para el tratamiento de tus datos biométricos. Acéptalo en Mi Perfil para iniciar la verificación.'
    api({ 'POST /api/start-verification': { status: 409, json: { message: refusal } } })
    renderRoute('/profile')
    await userEvent.click(await screen.findByRole('button', { name: 'Completar Verificación' }))
    expect(await screen.findByTestId('toast')).toHaveTextContent(refusal)
    expect(popup.close).toHaveBeenCalled()
  })
})

describe('/profile new privacy notice', () => {
  it('asks to accept a new notice version and blocks the biometric step until then', async () => {
    signInProfile()
    let consents = withConsent(grantedConsents('2026-11'), 'privacy_notice', { noticeVersion: '2026-01', current: false })
    const { calls } = api({
      'GET /api/users/7/consents': () => ({ json: consents }),
      'POST /api/users/7/consents': () => {
        consents = grantedConsents('2026-11')
        return { status: 201, json: consents.consents[0] }
      },
    })
    renderRoute('/profile')
    const notice = await screen.findByTestId('notice-consent')
    expect(within(notice).getByRole('heading', { name: 'Actualizamos nuestro aviso de privacidad' })).toBeInTheDocument()
    expect(notice).toHaveTextContent('2026-11')
    const link = within(notice).getByRole('link', { name: /Leer el aviso de privacidad/ })
    expect(link).toHaveAttribute('href', '/privacidad')
    expect(link).toHaveAttribute('target', '_blank')
    // The rest of the profile stays; the biometric step waits.
    expect(screen.getByText('Información personal')).toBeInTheDocument()
    expect(await screen.findByText('Para iniciar tu verificación biométrica, primero acepta el aviso de privacidad.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Completar Verificación' })).toBeDisabled()

    await userEvent.click(within(notice).getByRole('button', { name: 'Acepto el aviso de privacidad' }))
    await waitFor(() => expect(screen.queryByTestId('notice-consent')).not.toBeInTheDocument())
    await waitFor(() => expect(screen.getByRole('button', { name: 'Completar Verificación' })).toBeEnabled())
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ purpose: 'privacy_notice' }])
  })

  it('shows no notice card when the notice in force is accepted', async () => {
    renderPlainProfile()
    expect(await screen.findByRole('button', { name: 'Completar Verificación' })).toBeInTheDocument()
    expect(screen.queryByTestId('notice-consent')).not.toBeInTheDocument()
  })
})

describe('/profile Mis datos: download', () => {
  it("asks for a copy, follows it while it is prepared, and shows the server's refusal", async () => {
    signInProfile()
    let exports: unknown[] = []
    let posts = 0
    api({
      'GET /api/users/7/data-exports': () => ({ json: exports }),
      'POST /api/users/7/data-export': () => {
        posts += 1
        if (posts > 1) return refusal(429, 'Ya pediste una copia de tus datos hoy. Puedes pedir otra mañana.')
        exports = [{ id: 3, status: 'queued', requestedAt: '2026-11-24T18:00:00Z', readyAt: null, expiresAt: '2026-11-25T18:00:00Z' }]
        return { status: 202, json: { id: 3, message: 'Estamos preparando tus datos. Te enviaremos un enlace a tu correo electrónico.' } }
      },
    })
    renderRoute('/profile')
    const section = await screen.findByTestId('data-export')
    expect(within(section).getByRole('heading', { name: 'Descargar mis datos' })).toBeInTheDocument()
    expect(within(section).queryByTestId('latest-export')).not.toBeInTheDocument()

    vi.useFakeTimers({ shouldAdvanceTime: true })
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime })
    await user.click(within(section).getByRole('button', { name: 'Descargar mis datos' }))
    expect(await within(section).findByText('Estamos preparando tus datos. Te enviaremos un enlace a tu correo electrónico.')).toBeInTheDocument()
    const latest = await within(section).findByTestId('latest-export')
    expect(latest).toHaveTextContent('24/11/2026 12:00')
    expect(latest).toHaveTextContent('En preparación')
    expect(within(section).getByRole('button', { name: 'Descargar mis datos' })).toBeDisabled()

    exports = [{ ...(exports[0] as object), status: 'ready', readyAt: '2026-11-24T18:01:00Z' }]
    await vi.advanceTimersByTimeAsync(5000)
    await waitFor(() => expect(within(section).getByTestId('latest-export')).toHaveTextContent('Enviado a tu correo'))
    expect(within(section).getByTestId('latest-export')).toHaveTextContent('El enlace vence el 25/11/2026 12:00.')
    expect(within(section).queryByText(/Estamos preparando tus datos/)).not.toBeInTheDocument() // the badge says it was sent

    await user.click(within(section).getByRole('button', { name: 'Descargar mis datos' }))
    expect(await within(section).findByText('Ya pediste una copia de tus datos hoy. Puedes pedir otra mañana.')).toBeInTheDocument()
  })
})

describe('/profile Mis datos: corrections', () => {
  it('warns a validated person before a new name, then sends the confirmation', async () => {
    signInProfile()
    let current: Record<string, unknown> = validatedUser
    const { calls } = api(
      {
        'GET /api/users/7': () => ({ json: current }),
        'PUT /api/users/7/personal-data': (body) => {
          current = { ...validatedUser, nombre: (body as { nombre: string }).nombre, verificationLevel: 2, biometricVerified: false }
          return { json: current }
        },
      },
      validatedUser,
    )
    renderRoute('/profile')
    const section = await screen.findByTestId('rectification')
    const name = within(section).getByLabelText('Nombre completo')
    expect(name).toHaveValue('Ana López')
    expect(within(section).getByRole('button', { name: 'Guardar nombre' })).toBeDisabled()

    await userEvent.clear(name)
    await typeAndPress(section, name, 'An', 'Guardar nombre')
    expect(await within(section).findByText('El nombre completo debe tener al menos 3 caracteres')).toBeInTheDocument()

    await userEvent.clear(name)
    await typeAndPress(section, name, 'Ana María López', 'Guardar nombre')
    const dialog = await screen.findByRole('alertdialog', { name: '¿Cambiar tu nombre?' })
    expect(dialog).toHaveTextContent(
      'Si cambias tu nombre, tu validación biométrica dejará de ser válida y tendrás que validar tu identidad de nuevo. Tu pase y tu credencial se anularán.',
    )
    expect(calls.some((c) => c.method === 'PUT')).toBe(false)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }))
    expect(screen.queryByRole('alertdialog', { name: '¿Cambiar tu nombre?' })).not.toBeInTheDocument()
    expect(calls.some((c) => c.method === 'PUT')).toBe(false)

    await userEvent.click(within(section).getByRole('button', { name: 'Guardar nombre' }))
    // The form checks the name before it asks (asynchronously): wait for the dialog.
    const again = await screen.findByRole('alertdialog', { name: '¿Cambiar tu nombre?' })
    await userEvent.click(within(again).getByRole('button', { name: 'Sí, cambiar mi nombre' }))
    expect(await screen.findByText('Nombre actualizado')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ nombre: 'Ana María López', confirmRevalidation: true }])
    // The profile reads the user again: the validation is gone.
    await waitFor(() => expect(screen.getByTestId('verification-badge')).toHaveTextContent('Verificación en proceso'))
  })

  it('saves a new name at once below level 3', async () => {
    signInProfile()
    const { calls } = api({ 'PUT /api/users/7/personal-data': (body) => ({ json: { ...baseUser, ...(body as object) } }) })
    renderRoute('/profile')
    const section = await screen.findByTestId('rectification')
    await typeAndPress(section, within(section).getByLabelText('Nombre completo'), ' Ruiz', 'Guardar nombre')
    expect(await screen.findByText('Nombre actualizado')).toBeInTheDocument()
    expect(screen.queryByRole('alertdialog', { name: '¿Cambiar tu nombre?' })).not.toBeInTheDocument()
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ nombre: 'Ana López Ruiz' })
  })

  it('changes the phone with the code sent to it', async () => {
    signInProfile()
    let current: Record<string, unknown> = baseUser
    const { calls } = api({
      'GET /api/users/7': () => ({ json: current }),
      'POST /api/users/7/contact-change': {
        status: 202,
        json: { message: 'Te enviamos un código por WhatsApp al +525587654321.', channel: 'phone', verificationCode: '654321' },
      },
      'POST /api/users/7/contact-change/verify': (body) => {
        if ((body as { code: string }).code !== '654321') return refusal(400, 'Código de verificación incorrecto')
        current = { ...baseUser, phoneNumber: '+525587654321' }
        return { json: current }
      },
      ...confirmationRoutes,
    })
    renderRoute('/profile')
    const section = await screen.findByTestId('rectification')
    // First the confirmation from the current contact; the form comes after it.
    expect(within(section).queryByRole('radio', { name: 'Teléfono' })).not.toBeInTheDocument()
    await confirmContact(section)
    expect(calls.find((c) => c.path === '/api/users/7/confirmation')!.body).toEqual({ code: '135790' })
    await userEvent.click(await within(section).findByRole('radio', { name: 'Teléfono' }))
    const phone = within(section).getByLabelText('Nuevo teléfono (WhatsApp)')
    await typeAndPress(section, phone, '55 8765', 'Enviar código')
    expect(await within(section).findByText('El teléfono debe tener 10 dígitos')).toBeInTheDocument()
    expect(calls.some((c) => c.path === '/api/users/7/contact-change')).toBe(false)

    // Letters are dropped and an eleventh digit is not taken (the invitations' rule).
    await userEvent.type(phone, ' 4321a9')
    expect(phone).toHaveValue('55 8765 4321')
    await userEvent.click(within(section).getByRole('button', { name: 'Enviar código' }))
    expect(await within(section).findByText('Te enviamos un código por WhatsApp al +525587654321.')).toBeInTheDocument()
    expect(calls.find((c) => c.path === '/api/users/7/contact-change')!.body).toEqual({ phoneNumber: '+525587654321' })
    const toast = await screen.findByTestId('toast')
    expect(toast).toHaveTextContent('Código para pruebas')
    expect(toast).toHaveTextContent('654321')

    const code = within(section).getByLabelText('Código de verificación')
    await typeAndPress(section, code, '111111', 'Verificar código')
    expect(await within(section).findByText('Código de verificación incorrecto')).toBeInTheDocument()

    await userEvent.clear(code)
    await typeAndPress(section, code, '654321', 'Verificar código')
    expect(await screen.findByText('Tu teléfono quedó actualizado.')).toBeInTheDocument()
    expect(calls.filter((c) => c.path === '/api/users/7/contact-change/verify').map((c) => c.body)).toEqual([
      { code: '111111' },
      { code: '654321' },
    ])
    expect(await screen.findByText('+525587654321')).toBeInTheDocument()
    expect(within(section).getByRole('button', { name: 'Enviar código a mi contacto actual' })).toBeInTheDocument()
  })

  it('asks to confirm again when the confirmation expired', async () => {
    signInProfile()
    api({
      ...confirmationRoutes,
      'POST /api/users/7/contact-change': refusal(
        403,
        'Antes de cambiar tu correo o teléfono, confirma que eres tú con el código que enviamos a tu contacto actual o con tu llave de acceso. La confirmación vale 5 minutos.',
      ),
    })
    renderRoute('/profile')
    const section = await screen.findByTestId('rectification')
    await confirmContact(section)
    await typeAndPress(section, await within(section).findByLabelText('Nuevo correo electrónico'), 'otra@example.com', 'Enviar código')
    expect(await within(section).findByText(/La confirmación vale 5 minutos/)).toBeInTheDocument()
    expect(within(section).getByRole('button', { name: 'Enviar código a mi contacto actual' })).toBeInTheDocument()
    expect(within(section).queryByLabelText('Nuevo correo electrónico')).not.toBeInTheDocument()
  })

  it('sends the confirmation code to the e-mail for one who lost the phone', async () => {
    signInProfile()
    const { calls } = api({
      'POST /api/users/7/confirmation-code': (_body, url) =>
        url.searchParams.get('via') === 'email'
          ? { status: 202, json: { message: 'Te enviamos un código a a•••@example.com.', channel: 'email', verificationCode: '135790' } }
          : { status: 202, json: { message: 'Te enviamos un código por WhatsApp al +52 •• •••• 4321.', channel: 'phone' } },
      'POST /api/users/7/confirmation': { json: { confirmedUntil: '2026-11-24T18:05:00Z' } },
    })
    renderRoute('/profile')
    const section = await screen.findByTestId('rectification')
    await userEvent.click(await within(section).findByRole('button', { name: 'Enviar código a mi contacto actual' }))
    await userEvent.click(await within(section).findByRole('button', { name: 'Ya no tengo ese teléfono: enviarlo a mi correo' }))
    expect(await within(section).findByText('Te enviamos un código a a•••@example.com.')).toBeInTheDocument()
    expect(calls.filter((c) => c.path === '/api/users/7/confirmation-code').map((c) => c.url.search)).toEqual(['', '?via=email'])
    await typeAndPress(section, within(section).getByLabelText('Código de confirmación'), '135790', 'Confirmar código')
    expect(await within(section).findByLabelText('Nuevo correo electrónico')).toBeInTheDocument()
  })

  it("shows the server's refusal of an address another account uses", async () => {
    signInProfile()
    api({
      ...confirmationRoutes,
      'POST /api/users/7/contact-change': refusal(409, 'Ese correo electrónico o teléfono ya está registrado en otra cuenta.'),
    })
    renderRoute('/profile')
    const section = await screen.findByTestId('rectification')
    await confirmContact(section)
    await typeAndPress(section, await within(section).findByLabelText('Nuevo correo electrónico'), 'otra@example.com', 'Enviar código')
    expect(await within(section).findByText('Ese correo electrónico o teléfono ya está registrado en otra cuenta.')).toBeInTheDocument()
    expect(within(section).queryByLabelText('Código de verificación')).not.toBeInTheDocument()
  })
})

describe('/profile Mis datos: deletion', () => {
  it('deletes the account only after the code, and forgets the session', async () => {
    signInProfile()
    localStorage.setItem('userData', '{}')
    const { calls } = api({
      'POST /api/users/7/confirmation-code': {
        status: 202,
        json: { message: 'Te enviamos un código por WhatsApp al +525512345678.', channel: 'phone', verificationCode: '246810' },
      },
      'POST /api/users/7/confirmation': { json: { confirmedUntil: '2026-11-24T18:05:00Z' } },
      'DELETE /api/users/7': { json: { success: true, message: 'Tu cuenta y tus datos personales fueron eliminados.' } },
    })
    const { router } = renderRoute('/profile')
    const section = await screen.findByTestId('delete-account')
    expect(section).toHaveTextContent('folio, monto y fecha')
    expect(section).toHaveTextContent('ley fiscal')
    expect(within(section).queryByRole('button', { name: 'Eliminar mi cuenta' })).not.toBeInTheDocument()

    await userEvent.click(within(section).getByRole('button', { name: 'Enviar código de confirmación' }))
    expect(await within(section).findByText('Te enviamos un código por WhatsApp al +525512345678.')).toBeInTheDocument()
    expect(within(section).queryByRole('button', { name: 'Eliminar mi cuenta' })).not.toBeInTheDocument()
    const confirm = within(section).getByRole('button', { name: 'Confirmar código' })
    expect(confirm).toBeDisabled()
    await userEvent.type(within(section).getByLabelText('Código de confirmación'), '246810')
    await userEvent.click(confirm)
    expect(calls.find((c) => c.path === '/api/users/7/confirmation')!.body).toEqual({ code: '246810' })

    await userEvent.click(await within(section).findByRole('button', { name: 'Eliminar mi cuenta' }))
    const dialog = screen.getByRole('alertdialog', { name: '¿Eliminar tu cuenta?' })
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sí, eliminar mi cuenta' }))

    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/users/7'])
    expect(localStorage.getItem('userId')).toBeNull()
    expect(localStorage.getItem('userData')).toBeNull()
    const toast = await screen.findByTestId('toast')
    expect(toast).toHaveTextContent('Tu cuenta fue eliminada')
    expect(toast).toHaveTextContent('Tu cuenta y tus datos personales fueron eliminados.')
  })

  it('confirms with a passkey instead of a code', async () => {
    signInProfile()
    const assertion = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: {}, clientExtensionResults: {} }
    webauthn.startAuthentication.mockResolvedValueOnce(assertion)
    const { calls } = api({
      'POST /api/users/7/confirmation/passkey/options': { json: { publicKey: { challenge: 'abc', allowCredentials: [] } } },
      'POST /api/users/7/confirmation/passkey': { json: { confirmedUntil: '2026-11-24T18:05:00Z' } },
    })
    renderRoute('/profile')
    const section = await screen.findByTestId('delete-account')
    await userEvent.click(within(section).getByRole('button', { name: 'Confirmar con mi llave de acceso' }))
    expect(await within(section).findByRole('button', { name: 'Eliminar mi cuenta' })).toBeInTheDocument()
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({ optionsJSON: { challenge: 'abc', allowCredentials: [] } })
    expect(calls.find((c) => c.path === '/api/users/7/confirmation/passkey')!.body).toEqual(assertion)
    expect(calls.some((c) => c.path === '/api/users/7/confirmation-code')).toBe(false)
  })

  it("says so when the person has no passkey, and the code stays", async () => {
    signInProfile()
    webauthn.startAuthentication.mockClear()
    api({
      'POST /api/users/7/confirmation/passkey/options': refusal(409, 'Aún no tienes llaves de acceso. Confirma con un código.'),
    })
    renderRoute('/profile')
    const section = await screen.findByTestId('delete-account')
    await userEvent.click(within(section).getByRole('button', { name: 'Confirmar con mi llave de acceso' }))
    expect(await within(section).findByText('Aún no tienes llaves de acceso. Confirma con un código.')).toBeInTheDocument()
    expect(within(section).getByRole('button', { name: 'Enviar código de confirmación' })).toBeEnabled()
    expect(webauthn.startAuthentication).not.toHaveBeenCalled()
  })

  it('starts over when the server says the confirmation is missing or old', async () => {
    signInProfile()
    api({
      'POST /api/users/7/confirmation-code': { status: 202, json: { message: 'Te enviamos un código.', channel: 'phone' } },
      'POST /api/users/7/confirmation': { json: { confirmedUntil: '2026-11-24T18:05:00Z' } },
      'DELETE /api/users/7': refusal(403, 'Confirma la eliminación con el código que te enviamos. La confirmación vale 5 minutos.'),
    })
    const { router } = renderRoute('/profile')
    const section = await screen.findByTestId('delete-account')
    await userEvent.click(within(section).getByRole('button', { name: 'Enviar código de confirmación' }))
    await typeAndPress(section, await within(section).findByLabelText('Código de confirmación'), '246810', 'Confirmar código')
    await userEvent.click(await within(section).findByRole('button', { name: 'Eliminar mi cuenta' }))
    await userEvent.click(within(screen.getByRole('alertdialog', { name: '¿Eliminar tu cuenta?' })).getByRole('button', { name: 'Sí, eliminar mi cuenta' }))
    expect(
      await within(section).findByText('Confirma la eliminación con el código que te enviamos. La confirmación vale 5 minutos.'),
    ).toBeInTheDocument()
    expect(within(section).getByRole('button', { name: 'Enviar código de confirmación' })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/profile')
    expect(localStorage.getItem('userId')).toBe('7')
  })
})

describe('/profile Mis datos: secondary uses, requests and lookups', () => {
  it('objects to a secondary use with its switch and shows the saved state', async () => {
    signInProfile()
    let consents = grantedConsents()
    const { calls } = api({
      'GET /api/users/7/consents': () => ({ json: consents }),
      'POST /api/users/7/consents': (body) => {
        const { purpose, granted } = body as { purpose: string; granted: boolean }
        consents = withConsent(consents, purpose, { granted, recordedAt: '2026-11-24T18:00:00Z', noticeVersion: '2026-11' })
        return { status: 201, json: consents.consents.find((c) => c.purpose === purpose) }
      },
    })
    renderRoute('/profile')
    const section = await screen.findByTestId('secondary-uses')
    const partners = await within(section).findByRole('switch', { name: 'Avisos a plataformas aliadas' })
    expect(partners).toHaveAccessibleDescription('Avisamos a la plataforma por la que llegaste cuando tu validación cambia.')
    const reminders = within(section).getByRole('switch', { name: 'Recordatorios de vigencia' })
    expect(reminders).toHaveAccessibleDescription('Te avisamos 30 y 7 días antes de que venza tu validación.')
    expect(partners).toBeChecked()
    expect(within(section).getByTestId('purpose-partner_notifications')).toHaveTextContent('Activado · predeterminado')

    await userEvent.click(partners)
    await waitFor(() => expect(within(section).getByRole('switch', { name: 'Avisos a plataformas aliadas' })).not.toBeChecked())
    expect(within(section).getByTestId('purpose-partner_notifications')).toHaveTextContent('Desactivado · guardado el 24/11/2026')
    expect(within(section).getByRole('switch', { name: 'Recordatorios de vigencia' })).toBeChecked()
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ purpose: 'partner_notifications', granted: false }])
    // Only secondary purposes have a switch.
    expect(within(section).getAllByRole('switch')).toHaveLength(2)
  })

  it('lists the requests with their deadline in Spanish', async () => {
    signInProfile()
    api({
      'GET /api/users/7/arco-requests': {
        json: [
          { id: 2, type: 'rectificacion', state: 'atendida', channel: 'app', receivedAt: '2026-11-20T18:00:00Z', dueAt: '2026-12-18T23:59:59-06:00', resolvedAt: '2026-11-20T18:00:00Z' },
          { id: 1, type: 'acceso', state: 'en_proceso', channel: 'correo', receivedAt: '2026-11-10T18:00:00Z', dueAt: '2026-12-08T23:59:59-06:00', resolvedAt: null },
        ],
      },
    })
    renderRoute('/profile')
    const section = await screen.findByTestId('arco-requests')
    const rows = await within(section).findAllByTestId('arco-request-row')
    expect(within(section).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Tipo', 'Recibida', 'Fecha límite', 'Estado'])
    expectTextContents(rows[0], ['Rectificación', '20/11/2026', '18/12/2026', 'Atendida'])
    expect(rows[1]).toHaveTextContent('Acceso')
    expect(rows[1]).toHaveTextContent('En proceso')
  })

  it('lists the lookups by date and channel, never an IP, a page at a time', async () => {
    signInProfile()
    const { calls } = api({
      'GET /api/users/7/consultations': (_, url) =>
        url.searchParams.get('before') === 'c1'
          ? { json: { items: [{ at: '2026-11-01T15:05:00Z', channel: 'partner_api', partnerName: null }], nextCursor: null } }
          : {
              json: {
                items: [
                  { at: '2026-11-20T18:30:00Z', channel: 'public_page', partnerName: null },
                  { at: '2026-11-19T02:10:00Z', channel: 'partner_api', partnerName: 'CasaLista' },
                ],
                nextCursor: 'c1',
              },
            },
    })
    renderRoute('/profile')
    const section = await screen.findByTestId('consultations')
    const items = await within(section).findAllByTestId('consultation')
    expect(items).toHaveLength(2)
    expect(items[0]).toHaveTextContent('20/11/2026 12:30')
    expect(items[0]).toHaveTextContent('Página pública / QR')
    expect(items[1]).toHaveTextContent('18/11/2026 20:10')
    expect(items[1]).toHaveTextContent('API de CasaLista')
    const first = calls.find((c) => c.path === '/api/users/7/consultations')!
    expect(first.url.searchParams.get('limit')).toBe('20')
    expect(first.url.searchParams.has('before')).toBe(false)

    await userEvent.click(within(section).getByRole('button', { name: 'Cargar más' }))
    expect(await within(section).findByText('Plataforma aliada')).toBeInTheDocument()
    expect(within(section).getAllByTestId('consultation')).toHaveLength(3)
    const more = calls.filter((c) => c.path === '/api/users/7/consultations')
    expect(more.at(-1)!.url.searchParams.get('before')).toBe('c1')
    expect(more.at(-1)!.url.searchParams.get('limit')).toBe('20')
    expect(within(section).queryByRole('button', { name: 'Cargar más' })).not.toBeInTheDocument()
    expect(section.textContent).not.toMatch(/\b\d{1,3}(\.\d{1,3}){3}\b/)
    expect(section.textContent).not.toMatch(/\bIP\b/)
  })

  it('says nobody looked yet', async () => {
    renderPlainProfile()
    const section = await screen.findByTestId('consultations')
    expect(await within(section).findByText('Nadie ha consultado tu perfil todavía.')).toBeInTheDocument()
    expect(await within(await screen.findByTestId('arco-requests')).findByText('No tienes solicitudes.')).toBeInTheDocument()
  })

  it('lists the platforms the person shared with and withdraws one after confirming', async () => {
    signInProfile()
    let grants = [
      { id: 5, partnerName: 'CasaLista', domain: 'https://casalista.mx', claims: ['name', 'validUntil'], via: 'session',
        grantedAt: '2026-11-20T18:30:00Z', revokedAt: null as string | null },
    ]
    const { calls } = api({
      'GET /api/users/7/partner-access': () => ({ json: { grants } }),
      'DELETE /api/users/7/partner-access/5': () => {
        grants = [{ ...grants[0], revokedAt: '2026-11-25T18:00:00Z' }]
        return { json: grants[0] }
      },
    })
    renderRoute('/profile')
    const section = await screen.findByTestId('partner-access')
    const row = await within(section).findByTestId('partner-grant')
    expectTextContents(row, ['CasaLista', 'Tu nombre completo, La vigencia de tu validación', 'Compartido el 20/11/2026 12:30'])
    await userEvent.click(within(row).getByRole('button', { name: 'Retirar acceso' }))
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false)
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Retirar acceso' }))
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/users/7/partner-access/5')).toBe(true))
    expect(await within(section).findByText(/Acceso retirado el 25\/11\/2026 12:00/)).toBeInTheDocument()
    expect(within(section).queryByRole('button', { name: 'Retirar acceso' })).not.toBeInTheDocument()
  })

  it('names the ID\'s data a platform received (issue 52)', async () => {
    signInProfile()
    api({
      'GET /api/users/7/partner-access': () => ({
        json: {
          grants: [{ id: 6, partnerName: 'Notaría 12', domain: 'https://notaria12.mx', claims: ['givenName', 'familyName', 'ageOver18', 'curp'],
            via: 'session', grantedAt: '2026-11-20T18:30:00Z', revokedAt: null }],
        },
      }),
    })
    renderRoute('/profile')
    const row = await within(await screen.findByTestId('partner-access')).findByTestId('partner-grant')
    expect(row).toHaveTextContent(
      'Tu nombre (como aparece en tu identificación), Tus apellidos, Que eres mayor de 18 años (sin tu fecha de nacimiento), Tu CURP',
    )
  })

  it('says when nothing was shared', async () => {
    renderPlainProfile()
    const section = await screen.findByTestId('partner-access')
    expect(await within(section).findByText('No has compartido tus datos con ninguna plataforma.')).toBeInTheDocument()
  })
})
