import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { legalInfoFixture as legal } from '@/testing/legal-info'
import { mockApi } from '@/testing/mock-api'
import { renderRoute } from '@/testing/render-route'

const plansOn = {
  paymentsEnabled: true,
  plans: [
    { code: 'free', currency: 'MXN', name: 'Validación por aliado', price: 0, recommended: false, years: 1 },
    { code: 'one_year', currency: 'MXN', name: 'Validación 1 año', price: 299, recommended: true, years: 1 },
    { code: 'five_years', currency: 'MXN', name: 'Validación 5 años', price: 399, recommended: false, years: 5 },
  ],
}

describe('/terminos', () => {
  it('shows the terms with the version, the plans for sale and links to the privacy notice', async () => {
    mockApi({ 'GET /api/legal': { json: legal }, 'GET /api/plans': { json: plansOn } })
    renderRoute('/terminos')

    expect(await screen.findByTestId('legal-version')).toHaveTextContent('Versión 2026-11-28 · vigente desde 28 de noviembre de 2026')
    expect(screen.getByRole('heading', { level: 1, name: 'Términos y condiciones' })).toBeInTheDocument()
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1)
    expect(document.title).toBe('Términos y condiciones | Perfil Seguro')

    const main = screen.getByRole('main')
    const privacyLinks = within(main).getAllByRole('link', { name: /Aviso de privacidad/ })
    expect(privacyLinks[0]).toHaveAttribute('href', '/privacidad')
    expect(privacyLinks[0]).toHaveAttribute('data-print-url', `${window.location.origin}/privacidad`)
    expect(privacyLinks.map((a) => a.getAttribute('href'))).toContain('/privacidad#conservacion')

    expect(main).toHaveTextContent(legal.legalName)
    expect(main).toHaveTextContent(/no es:.*una notaría/)
    expect(main).toHaveTextContent(/tribunales competentes de la Ciudad de México/)
    for (const id of ['servicio', 'cuentas', 'obligaciones', 'planes', 'vigencia', 'plataformas', 'suspension', 'responsabilidad', 'cambios', 'ley', 'contacto']) {
      expect(document.getElementById(id)?.tagName, id).toBe('H2')
    }

    const plans = await screen.findByTestId('terms-plans')
    await within(plans).findByText(/Validación 5 años: \$399 MXN, con vigencia de 5 años/)
    expect(within(plans).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Sin costo, con vigencia de 1 año: si llegaste a través de CasaLista o aceptaste una invitación.',
      'Validación 1 año: $299 MXN, con vigencia de 1 año.',
      'Validación 5 años: $399 MXN, con vigencia de 5 años.',
    ])

    const contact = document.getElementById('contacto')!.parentElement!
    expect(within(contact).getByRole('link', { name: legal.supportEmail })).toHaveAttribute('href', 'mailto:soporte@perfilseguro.mx')
    expect(within(contact).getByRole('link', { name: legal.privacyEmail })).toHaveAttribute('href', 'mailto:privacidad@perfilseguro.mx')
  })

  it('names no price when the server says payments are off', async () => {
    mockApi({ 'GET /api/legal': { json: legal }, 'GET /api/plans': { json: { paymentsEnabled: false, plans: [] } } })
    renderRoute('/terminos')
    await screen.findByTestId('legal-version')
    expect(await screen.findByText(/la cubren las plataformas aliadas/)).toBeInTheDocument()
    expect(screen.queryByTestId('terms-plans')).not.toBeInTheDocument()
    expect(screen.getByRole('main')).not.toHaveTextContent(/\$\d+/)
  })

  it('shows the retry alert when GET /api/legal fails', async () => {
    mockApi({ 'GET /api/legal': { status: 500, text: '' } })
    renderRoute('/terminos')
    expect(await screen.findByRole('alert')).toHaveTextContent('No pudimos cargar el documento')
    expect(screen.getByRole('button', { name: 'Reintentar' })).toBeEnabled()
  })
})
