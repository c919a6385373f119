import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockApi, refusal } from '@/testing/mock-api'
import { expectRedirectWhenSignedOut, renderRoute } from '@/testing/render-route'

const user = {
  id: 7,
  nombre: 'María Fernanda López',
  vigencia: 10,
  id_validado: 'PS-1234-5678-90',
  profileId: 'PS-1234-5678-90',
  fecha_validacion: '2024-03-07T12:00:00Z',
  qr_url: '/api/qr/PS-1234-5678-90.png',
  verificationLevel: 3,
  biometricVerified: true,
}

describe('/profile/validated', () => {
  it('redirects to /register without a query or stored id', async () => {
    await expectRedirectWhenSignedOut('/profile/validated', '/register')
  })

  it('says revoked, never validated, while a revocation stands', async () => {
    mockApi({ 'GET /api/users/7': { json: { ...user, revokedAt: '2026-11-20T18:00:00Z', revokedReason: 'Documento robado' } } })
    renderRoute('/profile/validated?userId=7')
    expect(await screen.findByRole('heading', { name: 'Validación revocada' })).toBeInTheDocument()
    expect(screen.queryByText('Perfil validado correctamente')).not.toBeInTheDocument()
    expect(screen.queryByText('Vigencia hasta')).not.toBeInTheDocument()
    expect(screen.getByTestId('card-status')).toHaveTextContent('Revocado')
    expect(screen.queryByText('ID Validado')).not.toBeInTheDocument()
  })

  it("shows the validated profile with the quirky 'Vigencia hasta' and stores the id", async () => {
    mockApi({ 'GET /api/users/7': { json: user } })
    renderRoute('/profile/validated?userId=7')
    expect(await screen.findByText('Perfil validado correctamente')).toBeInTheDocument()
    expect(window.localStorage.getItem('userId')).toBe('7')
    const inFiveYears = new Date()
    inFiveYears.setFullYear(inFiveYears.getFullYear() + 5)
    // vigencia 10: the screen says today + 5 years, the card the real expiry 2034.
    expect(screen.getByText(inFiveYears.toLocaleDateString('es-MX', { year: 'numeric', month: 'long', day: 'numeric' }))).toBeInTheDocument()
    expect(screen.getByText(`Validado hasta: ${new Date('2034-03-07T12:00:00Z').toLocaleDateString('es-MX')}`)).toBeInTheDocument()
    expect(screen.getAllByText('PS-1234-5678-90').length).toBeGreaterThan(0)
    expect(screen.getByRole('link', { name: 'Volver al inicio' })).toHaveAttribute('href', '/')
    expect(screen.getByRole('link', { name: 'Ver mi perfil' })).toHaveAttribute('href', '/profile')
  })

  it("falls back to 'Usuario Verificado' and disables the download without a QR URL", async () => {
    window.localStorage.setItem('userId', '7')
    mockApi({ 'GET /api/users/7': { json: { ...user, nombre: '', qr_url: null } } })
    renderRoute('/profile/validated')
    expect(await screen.findAllByText('Usuario Verificado')).not.toHaveLength(0)
    expect(screen.getByRole('button', { name: /Descargar mi QR/ })).toBeDisabled()
  })

  it('downloads the QR as {validated ID}.png and says so', async () => {
    mockApi({ 'GET /api/users/7': { json: user }, 'GET /api/qr/PS-1234-5678-90.png': { text: 'png' } })
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(this.download)
    })
    const downloads: string[] = []
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:qr'), revokeObjectURL: vi.fn() }))
    renderRoute('/profile/validated?userId=7')
    await userEvent.click(await screen.findByRole('button', { name: /Descargar mi QR/ }))
    expect(await screen.findByText('QR descargado correctamente')).toBeInTheDocument()
    expect(downloads).toEqual(['PS-1234-5678-90.png'])
    click.mockRestore()
  })

  it('shows the load error with a way home', async () => {
    mockApi({ 'GET /api/users/7': refusal(403, 'No tienes permiso') })
    renderRoute('/profile/validated?userId=7')
    expect(await screen.findByText('Error al cargar tu perfil')).toBeInTheDocument()
    expect(
      screen.getByText('No pudimos encontrar tu información. Por favor, intenta nuevamente o contacta a soporte.'),
    ).toBeInTheDocument()
  })
})
