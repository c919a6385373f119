import { act, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { renderRoute } from '@/testing/render-route'

describe('header, logged in', () => {
  it('greys out Invitaciones until biometric verification, with the hint', async () => {
    localStorage.setItem('userId', '7')
    mockApi({
      'GET /api/auth/status': { json: { authenticated: true } },
      'GET /api/users/7/verification-status': { json: { verificationLevel: 1, biometricVerified: false } },
    })
    renderRoute('/success')
    const header = await screen.findByRole('banner')
    expect(within(header).getByRole('link', { name: 'Mi Perfil' })).toHaveAttribute('href', '/profile')
    expect(within(header).queryByRole('link', { name: 'Invitaciones' })).not.toBeInTheDocument()
    const locked = within(header).getByText('Invitaciones').closest('[aria-disabled="true"]')
    expect(locked).toHaveAttribute('title', 'Completa tu verificación biométrica para acceder a invitaciones')
    expect(within(header).queryByText('Iniciar Sesión')).not.toBeInTheDocument()
  })

  it('makes Invitaciones a live link when biometric verified (either spelling)', async () => {
    localStorage.setItem('userId', '7')
    mockApi({
      'GET /api/auth/status': { json: {} },
      'GET /api/users/7/verification-status': { json: { verificationLevel: 3, biometric_verified: true } },
    })
    renderRoute('/success')
    const header = await screen.findByRole('banner')
    expect(await within(header).findByRole('link', { name: 'Invitaciones' })).toHaveAttribute('href', '/invitations')
  })

  it('keeps Invitaciones locked while the validation is revoked, saying why', async () => {
    localStorage.setItem('userId', '7')
    mockApi({
      'GET /api/auth/status': { json: {} },
      'GET /api/users/7/verification-status': { json: { verificationLevel: 3, biometricVerified: true, revoked: true } },
    })
    renderRoute('/success')
    const header = await screen.findByRole('banner')
    const locked = await waitFor(() => {
      const el = within(header).getByText('Invitaciones').closest('[aria-disabled="true"]')
      expect(el).toHaveAttribute('title', 'Tu validación fue revocada: las invitaciones no están disponibles')
      return el
    })
    expect(locked).toBeInTheDocument()
    expect(within(header).queryByRole('link', { name: 'Invitaciones' })).not.toBeInTheDocument()
  })

  it('clears the user when /api/auth/status answers 401', async () => {
    localStorage.setItem('userId', '7')
    mockApi({ 'GET /api/auth/status': { status: 401, text: '' }, 'GET /api/users/7/verification-status': { status: 401, text: '' } })
    renderRoute('/success')
    const header = await screen.findByRole('banner')
    expect(await within(header).findByRole('link', { name: 'Iniciar Sesión' })).toBeInTheDocument()
    expect(localStorage.getItem('userId')).toBeNull()
  })

  it('reacts to the userLoggedIn event', async () => {
    mockApi({ 'GET /api/auth/status': { json: {} }, 'GET /api/users/9/verification-status': { json: {} } })
    renderRoute('/success')
    const header = await screen.findByRole('banner')
    expect(within(header).getByRole('link', { name: 'Registrarse' })).toBeInTheDocument()
    act(() => {
      localStorage.setItem('userId', '9')
      window.dispatchEvent(new Event('userLoggedIn'))
    })
    await waitFor(() => expect(within(header).getByRole('link', { name: 'Mi Perfil' })).toBeInTheDocument())
  })
})
