import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { mockApi, type RecordedCall } from '@/testing/mock-api'
import { renderRoute, renderRouteWithUser } from '@/testing/render-route'

async function fillDetails(user: ReturnType<typeof userEvent.setup>, phone = '55 1234 5678') {
  await user.type(screen.getByLabelText('Nombre completo'), 'Ana López')
  await user.type(screen.getByLabelText('Correo electrónico'), 'ana@example.com')
  await user.type(screen.getByLabelText('Número de WhatsApp'), phone)
  await user.click(screen.getByRole('button', { name: 'Continuar' }))
}

/** Sends the details and waits for the code step; returns the call POST /api/register got. */
async function sendDetails(user: ReturnType<typeof userEvent.setup>, calls: RecordedCall[]) {
  await fillDetails(user)
  await screen.findByRole('button', { name: 'Verificar código' })
  return calls.find((c) => c.path === '/api/register')!
}

describe('/register', () => {
  it('shows the title, heading and the screen validation messages', async () => {
    const { calls } = mockApi({})
    const { user } = renderRouteWithUser('/register')
    expect(await screen.findByRole('heading', { name: 'Registro' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Registra tus datos' })).toBeInTheDocument()

    await user.type(screen.getByLabelText('Nombre completo'), 'Al')
    await user.type(screen.getByLabelText('Correo electrónico'), 'no-es-correo')
    await user.type(screen.getByLabelText('Número de WhatsApp'), '55 12')
    await user.click(screen.getByRole('button', { name: 'Continuar' }))

    expect(await screen.findByText('El nombre completo debe tener al menos 3 caracteres')).toBeInTheDocument()
    expect(screen.getByText('Correo electrónico no válido')).toBeInTheDocument()
    expect(screen.getByText('El número de teléfono debe tener al menos 8 dígitos')).toBeInTheDocument()
    expect(calls.filter((c) => c.path === '/api/register')).toHaveLength(0)
  })

  it('links the terms and the privacy notice in a new tab, so the half-filled form stays', async () => {
    renderRoute('/register')
    const main = within(await screen.findByRole('main'))
    const terms = await main.findByRole('link', { name: /Términos y condiciones/ })
    const privacy = main.getByRole('link', { name: /Aviso de privacidad/ })
    expect(terms).toHaveAttribute('href', '/terminos')
    expect(privacy).toHaveAttribute('href', '/privacidad')
    for (const link of [terms, privacy]) {
      expect(link).toHaveAttribute('target', '_blank')
      expect(link).toHaveAttribute('rel', 'noopener')
    }
    expect(terms.closest('p')).toHaveTextContent(/^Al registrarte aceptas los Términos y condiciones/)
  })

  it('accepts only digits and spaces while typing the phone', async () => {
    const { user } = renderRouteWithUser('/register')
    const phone = await screen.findByLabelText('Número de WhatsApp')
    await user.type(phone, '+55-12ab 34')
    expect(phone).toHaveValue('5512 34')
  })

  it('registers with a +52 phone, shows the test code, then verifies and goes to /profile', async () => {
    const { calls } = mockApi({
      'POST /api/register': { json: { ok: true, sessionToken: 'tok-123', verificationCode: '654321' } },
      'POST /api/verify-code': { json: { userId: 9 } },
    })
    const { user, router } = renderRouteWithUser('/register')
    await screen.findByLabelText('Nombre completo')
    await fillDetails(user)

    expect(await screen.findByText('Código para pruebas')).toBeInTheDocument()
    expect(screen.getByText('654321')).toBeInTheDocument()
    const register = calls.find((c) => c.path === '/api/register')!
    expect(register.body).toEqual({ fullName: 'Ana López', email: 'ana@example.com', phoneNumber: '+525512345678' })
    expect(localStorage.getItem('registerTempId')).toBe('tok-123')

    const verifyButton = screen.getByRole('button', { name: 'Verificar código' })
    expect(verifyButton).toBeDisabled()
    await user.type(screen.getByLabelText('Código de verificación'), '12345')
    expect(verifyButton).toBeDisabled()
    await user.type(screen.getByLabelText('Código de verificación'), '6')
    expect(verifyButton).toBeEnabled()
    await user.click(verifyButton)

    await waitFor(() => expect(localStorage.getItem('userId')).toBe('9'))
    expect(localStorage.getItem('registerTempId')).toBeNull()
    // Level 1 only: the toast says the phone is verified, not the identity.
    expect(await screen.findByText('Tu número de WhatsApp quedó verificado (Nivel 1).')).toBeInTheDocument()
    expect(screen.queryByText(/Tu identidad ha sido verificada/)).not.toBeInTheDocument()
    expect(calls.find((c) => c.path === '/api/verify-code')!.body).toEqual({ sessionToken: 'tok-123', code: '123456' })
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'), { timeout: 3000 })
  })

  it('goes back to the details with "Volver al registro"', async () => {
    mockApi({ 'POST /api/register': { json: { sessionToken: 't' } } })
    const { user } = renderRouteWithUser('/register')
    await screen.findByLabelText('Nombre completo')
    await fillDetails(user)
    await user.click(await screen.findByRole('button', { name: 'Volver al registro' }))
    expect(screen.getByLabelText('Nombre completo')).toHaveValue('Ana López')
  })

  it('shows the server message on a registration error', async () => {
    mockApi({ 'POST /api/register': { status: 400, json: { message: 'El teléfono no es válido', errors: {} } } })
    const { user } = renderRouteWithUser('/register')
    await screen.findByLabelText('Nombre completo')
    await fillDetails(user)
    expect(await screen.findByText('El teléfono no es válido')).toBeInTheDocument()
  })

  it('falls back to "Error al registrar usuario"', async () => {
    mockApi({ 'POST /api/register': { status: 500, text: '' } })
    const { user } = renderRouteWithUser('/register')
    await screen.findByLabelText('Nombre completo')
    await fillDetails(user)
    expect(await screen.findByText('Error al registrar usuario')).toBeInTheDocument()
  })

  it('on a 409 conflict requests a new code through the widget login', async () => {
    const { calls } = mockApi({
      'POST /api/register': { status: 409, json: { message: 'El correo ya está registrado', existingUserId: 4 } },
      'POST /api/widget/login': { json: { success: true, sessionToken: 'tok-new', codeRequested: true } },
    })
    const { user } = renderRouteWithUser('/register')
    await screen.findByLabelText('Nombre completo')
    await fillDetails(user, '52 55 1234 5678')
    expect(await screen.findByText('Se envió un nuevo código de verificación a tu WhatsApp.')).toBeInTheDocument()
    expect(localStorage.getItem('registerTempId')).toBe('tok-new')
    expect(calls.find((c) => c.path === '/api/widget/login')!.body).toEqual({
      email: 'ana@example.com',
      phoneNumber: '+525512345678',
    })
    expect(screen.getByRole('button', { name: 'Verificar código' })).toBeInTheDocument()
  })

  it('says the code could not be sent when the widget login fails', async () => {
    mockApi({
      'POST /api/register': { status: 409, json: { message: 'Ya registrado', existingUserId: 4 } },
      'POST /api/widget/login': { status: 429, json: { message: 'Demasiados intentos' } },
    })
    const { user } = renderRouteWithUser('/register')
    await screen.findByLabelText('Nombre completo')
    await fillDetails(user)
    expect(await screen.findByText('No se pudo enviar el código. Intenta nuevamente.')).toBeInTheDocument()
    expect(localStorage.getItem('registerTempId')).toBe('4')
  })

  it('reports a wrong code with the server message', async () => {
    mockApi({
      'POST /api/register': { json: { sessionToken: 't' } },
      'POST /api/verify-code': { status: 400, json: { message: 'Código de verificación incorrecto' } },
    })
    const { user } = renderRouteWithUser('/register')
    await screen.findByLabelText('Nombre completo')
    await fillDetails(user)
    await user.type(await screen.findByLabelText('Código de verificación'), '000000')
    await user.click(screen.getByRole('button', { name: 'Verificar código' }))
    expect(await screen.findByText('Error de Verificación')).toBeInTheDocument()
    expect(screen.getByText('Código de verificación incorrecto')).toBeInTheDocument()
    expect(localStorage.getItem('userId')).toBeNull()
  })

  it('sends the plan chosen on the landing page and names it above the form', async () => {
    const { calls } = mockApi({ 'POST /api/register': { json: { ok: true, sessionToken: 'tok-1' } } })
    const { user } = renderRouteWithUser('/register?plan=five_years')
    await screen.findByLabelText('Nombre completo')
    expect(screen.getByTestId('chosen-plan')).toHaveTextContent('Plan elegido: Validación 5 años — $399 MXN')
    expect((await sendDetails(user, calls)).body).toEqual({
      fullName: 'Ana López',
      email: 'ana@example.com',
      phoneNumber: '+525512345678',
      plan: 'five_years',
    })
  })

  it('names the 1-year plan with its price', async () => {
    mockApi({})
    renderRoute('/register?plan=one_year')
    expect(await screen.findByText('Plan elegido: Validación 1 año — $299 MXN')).toBeInTheDocument()
  })

  it('ignores an unknown plan', async () => {
    const { calls } = mockApi({ 'POST /api/register': { json: { ok: true, sessionToken: 'tok-1' } } })
    const { user } = renderRouteWithUser('/register?plan=bogus')
    await screen.findByLabelText('Nombre completo')
    expect(screen.queryByText(/Plan elegido/)).not.toBeInTheDocument()
    expect((await sendDetails(user, calls)).body).toEqual({
      fullName: 'Ana López',
      email: 'ana@example.com',
      phoneNumber: '+525512345678',
    })
  })

  it('names no price when payments are off, and still sends the plan', async () => {
    const { calls } = mockApi({
      'GET /api/plans': { json: { paymentsEnabled: false, plans: [] } },
      'POST /api/register': { json: { ok: true, sessionToken: 'tok-1' } },
    })
    const { user } = renderRouteWithUser('/register?plan=one_year')
    await screen.findByLabelText('Nombre completo')
    await waitFor(() => expect(calls.some((c) => c.path === '/api/plans')).toBe(true))
    await waitFor(() => expect(screen.queryByText(/Plan elegido/)).not.toBeInTheDocument())
    expect((await sendDetails(user, calls)).body).toMatchObject({ plan: 'one_year' })
  })

  it("inside a platform's open verification, registers with the flow's token (the server decides the test mode) and not outside", async () => {
    const { calls } = mockApi({ 'POST /api/register': { json: { ok: true, sessionToken: 'tok-1' } } })
    const user = userEvent.setup()
    sessionStorage.setItem('ps_hosted_flow', JSON.stringify({ token: 'f'.repeat(64), mode: 'popup' }))
    try {
      renderRoute('/register')
      await screen.findByLabelText('Nombre completo')
      const headers = (await sendDetails(user, calls)).init?.headers as Record<string, string>
      expect(headers['X-Flow-Token']).toBe('f'.repeat(64))
    } finally {
      sessionStorage.removeItem('ps_hosted_flow')
    }
  })

  it('outside a verification, registers without a flow token', async () => {
    const { calls } = mockApi({ 'POST /api/register': { json: { ok: true, sessionToken: 'tok-1' } } })
    const { user } = renderRouteWithUser('/register')
    await screen.findByLabelText('Nombre completo')
    const headers = (await sendDetails(user, calls)).init?.headers as Record<string, string>
    expect(headers['X-Flow-Token']).toBeUndefined()
  })
})
