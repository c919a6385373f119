import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderRoute } from '@/testing/render-route'

/** Expects each link named in hrefs, inside scope, to point at its href. */
function expectLinks(scope: HTMLElement, hrefs: Record<string, string>) {
  for (const [name, href] of Object.entries(hrefs)) {
    expect(within(scope).getByRole('link', { name })).toHaveAttribute('href', href)
  }
}

describe('header, logged out', () => {
  it('shows the brand, the anchors and the sign-in buttons', async () => {
    renderRoute('/success')
    const header = await screen.findByRole('banner')
    expectLinks(header, { 'Perfil Seguro': '/', 'Iniciar Sesión': '/login', Registrarse: '/register', '¿Qué es?': '/#que-es' })
    const h = within(header)
    expect(h.getByRole('button', { name: /tema/i })).toBeInTheDocument()
    expect(h.queryByText('Mi Perfil')).not.toBeInTheDocument()
    expect(h.queryByText('Invitaciones')).not.toBeInTheDocument()
  })

  it('uses bare anchors on the landing', async () => {
    renderRoute('/')
    const header = await screen.findByRole('banner')
    expect(within(header).getByRole('link', { name: 'Precios' })).toHaveAttribute('href', '#precios')
  })
})

describe('footer', () => {
  it('opens a legal page at its top at once, not scrolling up from the bottom', async () => {
    renderRoute('/')
    const footer = await screen.findByRole('contentinfo')
    vi.mocked(window.scrollTo).mockClear()
    await userEvent.click(within(footer).getByRole('link', { name: 'Aviso de privacidad' }))
    await screen.findByRole('heading', { level: 1, name: /Aviso de privacidad/i })
    expect(window.scrollTo).toHaveBeenCalledWith({ top: 0, left: 0, behavior: 'instant' })
  })

  it('shows the developer banner except on /integration, the admin link and this year', async () => {
    renderRoute('/')
    const footer = await screen.findByRole('contentinfo')
    expect(within(footer).getByRole('link', { name: /documentación de integración/i })).toHaveAttribute('href', '/integration')
    expect(within(footer).getByRole('link', { name: 'Administración' })).toHaveAttribute('href', '/admin')
    expect(footer).toHaveTextContent(`© ${new Date().getFullYear()} Perfil Seguro`)
  })

  it('links the legal pages and the technical contact, and is left out of print', async () => {
    renderRoute('/success')
    const footer = await screen.findByRole('contentinfo')
    expectLinks(footer, {
      'Términos y condiciones': '/terminos',
      'Aviso de privacidad': '/privacidad',
      'Contacto técnico': 'mailto:soporte@perfilseguro.mx',
    })
    expect(footer).toHaveClass('print:hidden')
    expect(screen.getByRole('banner')).toHaveClass('print:hidden')
  })

  it('hides the developer banner on /integration', async () => {
    renderRoute('/integration')
    const footer = await screen.findByRole('contentinfo')
    expect(within(footer).queryByTestId('developer-banner')).not.toBeInTheDocument()
  })
})
