import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import type { Schema } from '@/lib/api-types'
import { mockApi, refusal, type MockHandler } from '@/testing/mock-api'
import { renderRoute } from '@/testing/render-route'
import { profileRoutes, profileUser, signInProfile } from '@/testing/profile-user'
import { expectTextContents } from '@/testing/expect-text'

type Status = Schema<'PaymentStatusResponse'>

const user = profileUser({ verificationLevel: 2 })

const plans: Status['plans'] = [
  { code: 'one_year', name: 'Validación 1 año', years: 1, price: 299, currency: 'MXN', recommended: true },
  { code: 'five_years', name: 'Validación 5 años', years: 5, price: 399, currency: 'MXN', recommended: false },
]

const choose: Status = {
  paymentsEnabled: true,
  state: 'choose',
  freeEligible: false,
  mayStartBiometric: false,
  message: 'Elige tu plan y págalo para iniciar tu verificación biométrica.',
  plans,
}

const payment = {
  id: 12,
  plan: 'one_year',
  planName: 'Validación 1 año',
  years: 1,
  amount: 299,
  currency: 'MXN',
  used: false,
  createdAt: '2026-03-01T18:00:00Z',
} satisfies Partial<NonNullable<Status['payment']>>

/** Mocks the profile of user 7 with the given payment status (a reply or a function). */
function api(status: Status | (() => Status), extra: Record<string, MockHandler> = {}) {
  return mockApi({
    ...profileRoutes(user),
    'GET /api/payments/status': typeof status === 'function' ? () => ({ json: status() }) : { json: status },
    ...extra,
  })
}

describe('/profile plan card', () => {
  it('chooses a plan and goes to the checkout page; the biometric check waits for the payment', async () => {
    signInProfile()
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, assign })
    const { calls } = api(choose, {
      'POST /api/payments/checkout': { json: { paymentId: 12, checkoutUrl: 'http://localhost/dev/checkout/cs_test_1' } },
    })
    renderRoute('/profile')
    const card = await screen.findByTestId('plan-card')
    expect(within(card).getByRole('heading', { name: 'Plan y pago' })).toBeInTheDocument()
    expect(card).toHaveTextContent(choose.message)
    expect(card).toHaveTextContent('Pago seguro con tarjeta o en efectivo en OXXO.')
    expect(within(card).getByRole('radio', { name: 'Validación 1 año' })).toBeChecked()
    expect(within(card).getByText('Recomendado')).toBeInTheDocument()
    expect(card).toHaveTextContent('$299 MXN')
    expect(card).toHaveTextContent('$399 MXN')
    expect(within(card).getByRole('button', { name: 'Pagar $299 MXN' })).toBeEnabled()

    // The start button waits for the consents (the biometric check needs the express consent first).
    const start = await screen.findByRole('button', { name: 'Completar Verificación' })
    expect(start).toBeDisabled()
    expect(screen.getByText('Primero elige y paga tu plan.')).toBeInTheDocument()
    expect(screen.queryByTestId('biometric-consent')).not.toBeInTheDocument() // the consent's step comes after the payment

    await userEvent.click(within(card).getByRole('radio', { name: 'Validación 5 años' }))
    await userEvent.click(within(card).getByRole('button', { name: 'Pagar $399 MXN' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost/dev/checkout/cs_test_1'))
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/payments/checkout')!.body).toEqual({ plan: 'five_years' })
    expect(within(card).getByRole('button', { name: 'Pagar $399 MXN' })).toBeDisabled()
  })

  it('preselects the plan chosen at registration', async () => {
    signInProfile()
    api({ ...choose, plan: 'five_years' })
    renderRoute('/profile')
    const card = await screen.findByTestId('plan-card')
    expect(within(card).getByRole('radio', { name: 'Validación 5 años' })).toBeChecked()
    expect(within(card).getByRole('button', { name: 'Pagar $399 MXN' })).toBeInTheDocument()
  })

  it('waits for a checkout page still being created (202), then goes there', async () => {
    signInProfile()
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, assign })
    let created = false
    api(
      () =>
        created
          ? { ...choose, state: 'open', message: 'Tienes un pago en curso.', payment: { ...payment, status: 'open', checkoutUrl: 'http://localhost/dev/checkout/cs_test_2' } }
          : choose,
      {
        'POST /api/payments/checkout': () => {
          created = true
          return { status: 202, json: { paymentId: 12, pending: true } }
        },
      },
    )
    renderRoute('/profile')
    const card = await screen.findByTestId('plan-card')
    await userEvent.click(within(card).getByRole('button', { name: 'Pagar $299 MXN' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost/dev/checkout/cs_test_2'), { timeout: 3000 })
  })

  it('shows the server message when the checkout is refused', async () => {
    signInProfile()
    api(choose, {
      'POST /api/payments/checkout': refusal(409, 'Ya pagaste tu plan. Completa tu verificación biométrica en Mi Perfil.'),
    })
    renderRoute('/profile')
    const card = await screen.findByTestId('plan-card')
    await userEvent.click(within(card).getByRole('button', { name: 'Pagar $299 MXN' }))
    expect(await screen.findByTestId('toast')).toHaveTextContent('Ya pagaste tu plan. Completa tu verificación biométrica en Mi Perfil.')
    expect(within(card).getByRole('button', { name: 'Pagar $299 MXN' })).toBeEnabled()
  })

  it('offers to continue an open checkout page', async () => {
    signInProfile()
    api({
      ...choose,
      state: 'open',
      message: 'Tienes un pago en curso. Continúa en la página de pago.',
      payment: { ...payment, status: 'open', checkoutUrl: 'http://localhost/dev/checkout/cs_test_3' },
    })
    renderRoute('/profile')
    const card = await screen.findByTestId('plan-card')
    expect(card).toHaveTextContent('Tienes un pago en curso. Continúa en la página de pago.')
    const link = within(card).getByRole('link', { name: 'Continuar con el pago' })
    expect(link).toHaveAttribute('href', 'http://localhost/dev/checkout/cs_test_3')
    expect(link).not.toHaveAttribute('target')
    expect(within(card).getByRole('radio', { name: 'Validación 5 años' })).toBeInTheDocument()
  })

  it('shows the OXXO voucher while it awaits cash, and turns to paid by itself', async () => {
    signInProfile()
    let paid = false
    const pending: Status = {
      ...choose,
      plan: 'five_years',
      state: 'pending',
      message: 'Paga tu ficha en cualquier tienda OXXO antes de la fecha límite.',
      payment: {
        ...payment,
        plan: 'five_years',
        planName: 'Validación 5 años',
        years: 5,
        amount: 399,
        status: 'pending',
        method: 'oxxo',
        voucher: { number: '12345678901234', expiresAt: '2026-03-05T05:59:00Z', url: 'http://localhost/dev/checkout/cs_test_4/voucher' },
      },
    }
    api(() =>
      paid
        ? { ...pending, state: 'paid', mayStartBiometric: true, message: 'Pago recibido.', payment: { ...pending.payment!, status: 'paid', voucher: null } }
        : pending,
    )
    vi.useFakeTimers({ shouldAdvanceTime: true })
    renderRoute('/profile')
    const card = await screen.findByTestId('plan-card')
    expect(within(card).getByRole('heading', { name: 'Ficha de pago OXXO' })).toBeInTheDocument()
    expect(card).toHaveTextContent(pending.message)
    expect(within(card).getByTestId('voucher-number')).toHaveTextContent('12345678901234')
    expect(card).toHaveTextContent('Monto$399.00 MXN')
    expect(card).toHaveTextContent('Fecha límite04/03/2026 23:59')
    const voucher = within(card).getByRole('link', { name: 'Ver ficha de pago' })
    expect(voucher).toHaveAttribute('href', 'http://localhost/dev/checkout/cs_test_4/voucher')
    expect(voucher).toHaveAttribute('target', '_blank')
    expect(voucher).toHaveAttribute('rel', expect.stringContaining('noopener'))
    expect(within(card).getByText('¿Prefieres pagar con tarjeta?')).toBeInTheDocument()
    expect(within(card).getByRole('radio', { name: 'Validación 5 años' })).toBeChecked()
    expect(await screen.findByRole('button', { name: 'Completar Verificación' })).toBeDisabled()

    paid = true
    await vi.advanceTimersByTimeAsync(5000)
    expect(await within(card).findByText('Pagado')).toBeInTheDocument()
    expect(card).toHaveTextContent('Efectivo en OXXO')
    expect(screen.getByRole('button', { name: 'Completar Verificación' })).toBeEnabled()
  })

  it('shows a paid plan and lets the biometric check start', async () => {
    signInProfile()
    api({
      ...choose,
      plan: 'one_year',
      state: 'paid',
      mayStartBiometric: true,
      message: 'Pago recibido. Completa tu verificación biométrica para activar tu vigencia de 1 año.',
      payment: { ...payment, status: 'paid', method: 'card', paidAt: '2026-03-01T18:05:00Z' },
    })
    renderRoute('/profile')
    const card = await screen.findByTestId('plan-card')
    expect(within(card).getByText('Pagado', { exact: true })).toBeInTheDocument()
    expectTextContents(card, [
      'Validación 1 año',
      '$299.00 MXN',
      'Tarjeta',
      'Pago recibido. Completa tu verificación biométrica para activar tu vigencia de 1 año.',
    ])
    expect(within(card).queryByRole('button', { name: /Pagar/ })).not.toBeInTheDocument()
    expect(await screen.findByRole('button', { name: 'Completar Verificación' })).toBeEnabled()
    expect(screen.queryByText('Primero elige y paga tu plan.')).not.toBeInTheDocument()
  })

  it('says a free validation without prices', async () => {
    signInProfile()
    api({
      ...choose,
      plan: 'free',
      state: 'free',
      freeEligible: true,
      mayStartBiometric: true,
      message: 'Tu validación es gratuita por llegar a través de CasaLista o por invitación. Completa tu verificación biométrica.',
    })
    renderRoute('/profile')
    const card = await screen.findByTestId('plan-card')
    expectTextContents(card, ['Validación gratuita', '1 año', 'Tu validación es gratuita por llegar a través de CasaLista'])
    expect(card).not.toHaveTextContent('$')
    expect(within(card).queryByRole('button', { name: /Pagar/ })).not.toBeInTheDocument()
    expect(await screen.findByRole('button', { name: 'Completar Verificación' })).toBeEnabled()
  })

  it('shows no card and no price when payments are off', async () => {
    signInProfile()
    const { calls } = api({ paymentsEnabled: false, state: 'not_required', freeEligible: false, mayStartBiometric: true, message: '', plans: [] })
    renderRoute('/profile')
    expect(await screen.findByRole('button', { name: 'Completar Verificación' })).toBeEnabled()
    await waitFor(() => expect(calls.some((c) => c.path === '/api/payments/status')).toBe(true))
    await new Promise((r) => setTimeout(r, 50))
    expect(screen.queryByTestId('plan-card')).not.toBeInTheDocument()
    expect(document.body.textContent).not.toContain('$')
  })

  it('says which plan is active after the validation', async () => {
    signInProfile()
    api({
      ...choose,
      plan: 'one_year',
      state: 'active',
      message: 'Tu plan está activo.',
      payment: { ...payment, status: 'paid', method: 'card', paidAt: '2026-03-01T18:05:00Z', used: true },
    })
    renderRoute('/profile')
    const card = await screen.findByTestId('plan-card')
    expectTextContents(card, ['Plan activo', 'Validación 1 año', 'Pagado el 01/03/2026'])
  })

  it('names the free plan as the active one', async () => {
    signInProfile()
    api({ ...choose, plan: 'free', state: 'active', freeEligible: true, message: 'Tu plan está activo.' })
    renderRoute('/profile')
    const card = await screen.findByTestId('plan-card')
    expect(card).toHaveTextContent('Plan activo')
    expect(card).toHaveTextContent('Validación gratuita')
    expect(card).not.toHaveTextContent('Pagado el')
  })

  it('says the payment was cancelled on ?pago=cancelado', async () => {
    signInProfile()
    api(choose)
    renderRoute('/profile?pago=cancelado')
    const card = await screen.findByTestId('plan-card')
    expect(within(card).getByRole('alert')).toHaveTextContent('Cancelaste el pago. Puedes intentarlo de nuevo cuando quieras.')
  })

  it('confirms the payment on ?pago=exito until the webhook lands', async () => {
    signInProfile()
    let checks = 0
    const open: Status = {
      ...choose,
      state: 'open',
      message: 'Tienes un pago en curso. Continúa en la página de pago.',
      payment: { ...payment, status: 'open', checkoutUrl: 'http://localhost/dev/checkout/cs_test_5' },
    }
    api(() => {
      checks += 1
      return checks < 3
        ? open
        : { ...open, state: 'paid', mayStartBiometric: true, message: 'Pago recibido.', payment: { ...payment, status: 'paid', method: 'card' } }
    })
    vi.useFakeTimers({ shouldAdvanceTime: true })
    renderRoute('/profile?pago=exito&session_id=cs_test_5')
    const card = await screen.findByTestId('plan-card')
    expect(card).toHaveTextContent('Estamos confirmando tu pago…')
    await vi.advanceTimersByTimeAsync(3000)
    expect(await within(card).findByText('Pagado')).toBeInTheDocument()
    expect(card).not.toHaveTextContent('Estamos confirmando tu pago…')
  })

  it('shows the 402 of the biometric start like its other errors', async () => {
    signInProfile()
    const popup = { location: { href: '' }, close: vi.fn() }
    vi.stubGlobal('open', vi.fn(() => popup))
    api(
      { paymentsEnabled: true, state: 'paid', freeEligible: false, mayStartBiometric: true, message: 'Pago recibido.', plans, payment: { ...payment, status: 'paid' } },
      {
        'POST /api/start-verification': refusal(402, 'Para iniciar tu verificación biométrica primero elige y paga tu plan en Mi Perfil.'),
      },
    )
    renderRoute('/profile')
    await userEvent.click(await screen.findByRole('button', { name: 'Completar Verificación' }))
    expect(await screen.findByTestId('toast')).toHaveTextContent('Para iniciar tu verificación biométrica primero elige y paga tu plan en Mi Perfil.')
    expect(popup.close).toHaveBeenCalled()
  })

  it('asks the payment status again when the biometric check ends', async () => {
    signInProfile()
    let level = 2
    const popup = { location: { href: '' }, close: vi.fn() }
    vi.stubGlobal('open', vi.fn(() => popup))
    const { calls } = mockApi({
      'GET /api/users/7': () => ({ json: { ...user, verificationLevel: level, biometricVerified: level >= 3 } }),
      'GET /api/users/7/verification-status': () => ({ json: { verificationLevel: level, biometricVerified: level >= 3 } }),
      'GET /api/auth/status': { json: {} },
      'GET /api/payments/status': () => ({
        json:
          level >= 3
            ? { ...choose, state: 'active', message: 'Tu plan está activo.', payment: { ...payment, status: 'paid', used: true } }
            : { ...choose, state: 'paid', mayStartBiometric: true, message: 'Pago recibido.', payment: { ...payment, status: 'paid' } },
      }),
      'POST /api/start-verification': { json: { verificationUrl: 'http://localhost/provider' } },
    })
    renderRoute('/profile')
    const card = await screen.findByTestId('plan-card')
    const button = await screen.findByRole('button', { name: 'Completar Verificación' })
    vi.useFakeTimers({ shouldAdvanceTime: true })
    await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).click(button)
    await waitFor(() => expect(popup.location.href).toBe('http://localhost/provider'))
    const before = calls.filter((c) => c.path === '/api/payments/status').length

    level = 3
    await vi.advanceTimersByTimeAsync(5000)
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/payments/status').length).toBeGreaterThan(before))
    expect(await within(card).findByText('Plan activo')).toBeInTheDocument()
  })
})
