import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderRoute } from '@/testing/render-route'

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
    expect(card).toHaveTextContent('María Fernanda López')
    expect(card).toHaveTextContent('PS-1234-5678-90')
    expect(card).toHaveTextContent('ID Validado')
    const nextYear = new Date()
    nextYear.setFullYear(nextYear.getFullYear() + 1)
    expect(card).toHaveTextContent(`Validado hasta: ${nextYear.toLocaleDateString('es-MX')}`)
    expect(within(card).getByAltText('Código QR de PS-1234-5678-90')).toHaveAttribute('src', '/api/qr/PS-1234-5678-90.png')
  })
})
