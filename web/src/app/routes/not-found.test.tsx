import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderRoute } from '@/testing/render-route'

describe('route table', () => {
  it('shows the 404 card on an unknown path', async () => {
    renderRoute('/no-such-page')
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument()
    expect(screen.getByText('Did you forget to add the page to the router?')).toBeInTheDocument()
  })

  it('does not show the 404 card on a known route', async () => {
    renderRoute('/success')
    expect(await screen.findByRole('heading', { name: '¡Listo!' })).toBeInTheDocument()
    expect(screen.queryByText('404 Page Not Found')).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: /ir a mi perfil/i })).toHaveAttribute('href', '/profile')
  })
})
