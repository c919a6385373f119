import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderRoute } from '@/testing/render-route'

describe('header, logged out', () => {
  it('shows the brand, the anchors and the sign-in buttons', async () => {
    renderRoute('/success')
    const header = await screen.findByRole('banner')
    const h = within(header)
    expect(h.getByRole('link', { name: 'Perfil Seguro' })).toHaveAttribute('href', '/')
    expect(h.getByRole('link', { name: 'Iniciar Sesión' })).toHaveAttribute('href', '/login')
    expect(h.getByRole('link', { name: 'Registrarse' })).toHaveAttribute('href', '/register')
    expect(h.getByRole('button', { name: /tema/i })).toBeInTheDocument()
    expect(h.getByRole('link', { name: '¿Qué es?' })).toHaveAttribute('href', '/#que-es')
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
  it('shows the developer banner except on /integration, the admin link and this year', async () => {
    renderRoute('/')
    const footer = await screen.findByRole('contentinfo')
    expect(within(footer).getByRole('link', { name: /documentación de integración/i })).toHaveAttribute('href', '/integration')
    expect(within(footer).getByRole('link', { name: 'Administración' })).toHaveAttribute('href', '/admin')
    expect(footer).toHaveTextContent(`© ${new Date().getFullYear()} Perfil Seguro`)
  })

  it('hides the developer banner on /integration', async () => {
    renderRoute('/integration')
    const footer = await screen.findByRole('contentinfo')
    expect(within(footer).queryByTestId('developer-banner')).not.toBeInTheDocument()
  })
})
