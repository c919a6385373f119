import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { renderRoute } from '@/testing/render-route'
import { expectTextContents } from '@/testing/expect-text'

const plansOn = {
  paymentsEnabled: true,
  plans: [
    { code: 'free', name: 'Validación gratuita', years: 1, price: 0, currency: 'MXN', recommended: false },
    { code: 'one_year', name: 'Validación 1 año', years: 1, price: 299, currency: 'MXN', recommended: true },
    { code: 'five_years', name: 'Validación 5 años', years: 5, price: 399, currency: 'MXN', recommended: false },
  ],
}

describe('landing', () => {
  it('has the anchored sections in the spec order', async () => {
    const { container } = renderRoute('/')
    await screen.findByRole('heading', { level: 1 })
    const ids = Array.from(container.querySelectorAll('main section[id]')).map((s) => s.id)
    expect(ids).toEqual(['que-es', 'beneficios', 'precios', 'ventajas'])
  })

  it('links the validation buttons to /register and Saber más to #que-es', async () => {
    renderRoute('/')
    const main = await screen.findByRole('main')
    const validate = within(main).getAllByRole('link', { name: /Validar mi identidad ahora/ })
    expect(validate.length).toBeGreaterThanOrEqual(2)
    for (const link of validate) expect(link).toHaveAttribute('href', '/register')
    expect(within(main).getByRole('link', { name: 'Saber más' })).toHaveAttribute('href', '#que-es')
  })

  it('opens the onboarding buttons in a new tab', async () => {
    renderRoute('/')
    const main = await screen.findByRole('main')
    for (const name of ['Obtener mi Perfil Seguro', 'Comenzar mi validación ahora']) {
      const link = within(main).getByRole('link', { name })
      expect(link).toHaveAttribute('href', '/register')
      expect(link).toHaveAttribute('target', '_blank')
    }
  })

  it('shows three plans with the featured 299 MXN one and the statistics', async () => {
    renderRoute('/')
    const plans = await screen.findAllByTestId('pricing-plan')
    expect(plans).toHaveLength(3)
    expect(plans[0]).toHaveTextContent('Gratis')
    expect(plans[1]).toHaveTextContent('Recomendado')
    expect(plans[1]).toHaveTextContent('$299MXN')
    expect(plans[2]).toHaveTextContent('$399MXN')
    expect(plans[2]).toHaveTextContent('soporte técnico prioritario')
    for (const stat of ['99.8%', '100+', 'Menos de 3s', '24/7']) expect(screen.getByText(stat)).toBeInTheDocument()
  })

  it('shows the verified demo card expiring in one year with our own QR', async () => {
    renderRoute('/')
    const card = await screen.findByTestId('digital-id-card')
    expectTextContents(card, ['María Fernanda López', 'PS-1234-5678-90', 'ID Validado'])
    const nextYear = new Date()
    nextYear.setFullYear(nextYear.getFullYear() + 1)
    expect(card).toHaveTextContent(`Validado hasta: ${nextYear.toLocaleDateString('es-MX')}`)
    expect(within(card).getByAltText('Código QR de PS-1234-5678-90')).toHaveAttribute('src', '/api/qr/PS-1234-5678-90.png')
  })

  it('carries the paid plan to registration from the pricing buttons when payments are on', async () => {
    const { calls } = mockApi({ 'GET /api/plans': { json: plansOn } })
    renderRoute('/')
    await waitFor(() => expect(calls.some((c) => c.path === '/api/plans')).toBe(true))
    const plans = await screen.findAllByTestId('pricing-plan')
    expect(plans).toHaveLength(3)
    const free = within(plans[0]).getByRole('link', { name: 'Comenzar gratis' })
    expect(free).toHaveAttribute('href', '/register')
    expect(free).toHaveAttribute('target', '_blank')
    for (const [i, name, href] of [
      [1, 'Elegir Validación 1 año', '/register?plan=one_year'],
      [2, 'Elegir Validación 5 años', '/register?plan=five_years'],
    ] as const) {
      const link = within(plans[i]).getByRole('link', { name })
      expect(link).toHaveAttribute('href', href)
      expect(link).toHaveAttribute('target', '_blank')
      expect(link).toHaveAttribute('rel', 'noopener noreferrer')
    }
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'Precios' })).toHaveAttribute('href', '#precios')
    expect(within(screen.getByRole('contentinfo')).getByRole('link', { name: 'Precios' })).toHaveAttribute('href', '#precios')
  })

  it('says nothing about prices when payments are off', async () => {
    mockApi({ 'GET /api/plans': { json: { paymentsEnabled: false, plans: [] } } })
    const { container } = renderRoute('/')
    await screen.findByRole('heading', { level: 1 })
    await waitFor(() => expect(container.querySelector('#precios')).toBeNull())
    const ids = Array.from(container.querySelectorAll('main section[id]')).map((s) => s.id)
    expect(ids).toEqual(['que-es', 'beneficios', 'ventajas'])
    expect(screen.queryAllByTestId('pricing-plan')).toHaveLength(0)
    expect(screen.queryByRole('link', { name: 'Precios' })).not.toBeInTheDocument()
    expect(container.querySelector('a[href$="#precios"]')).toBeNull()
    expect(screen.getByRole('main').textContent).not.toMatch(/\$\d/)
    // The other anchors stay.
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'Beneficios' })).toHaveAttribute('href', '#beneficios')
    expect(within(screen.getByRole('contentinfo')).getByRole('link', { name: '¿Qué es?' })).toHaveAttribute('href', '#que-es')
  })

  it('drops the Precios anchors on the other screens too when payments are off', async () => {
    mockApi({ 'GET /api/plans': { json: { paymentsEnabled: false, plans: [] } } })
    renderRoute('/success')
    const header = await screen.findByRole('banner')
    expect(within(header).getByRole('link', { name: '¿Qué es?' })).toHaveAttribute('href', '/#que-es')
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Precios' })).not.toBeInTheDocument())
  })

  it('keeps the prices when the plans cannot be read', async () => {
    const { calls } = mockApi({ 'GET /api/plans': { status: 500, text: '' } })
    renderRoute('/')
    await waitFor(() => expect(calls.some((c) => c.path === '/api/plans')).toBe(true))
    await new Promise((r) => setTimeout(r, 50))
    expect(await screen.findAllByTestId('pricing-plan')).toHaveLength(3)
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'Precios' })).toBeInTheDocument()
  })
})
