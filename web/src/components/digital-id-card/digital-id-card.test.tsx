import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { DigitalIdCard } from './digital-id-card'
import { applePassFileName } from './wallet-api'

describe('DigitalIdCard', () => {
  it('shows the pending state in slate once, with no date line saying it again', () => {
    render(<DigitalIdCard name="Ana" id="PS-0000-0000-01" verified={false} qrCode="/custom.png" />)
    const status = screen.getByText('Pendiente de validación')
    expect(status.className).toContain('text-slate-500')
    expect(screen.queryByText('Pendiente')).not.toBeInTheDocument()
    expect(screen.getByAltText('Código QR de PS-0000-0000-01')).toHaveAttribute('src', '/custom.png')
  })

  it('before the biometric check, shows both wallet buttons disabled with the hint and calls nothing', async () => {
    const { calls } = mockApi({})
    render(<DigitalIdCard name="Ana" id="PS-0000-0000-01" verified={false} userId="7" />)
    for (const name of [/Apple Wallet/, /Google Wallet/]) {
      expect(screen.getByRole('button', { name })).toBeDisabled()
    }
    expect(screen.getByTestId('wallet-locked')).toHaveTextContent('Completa tu verificación biométrica para agregar tu pase')
    await userEvent.click(screen.getByRole('button', { name: /Apple Wallet/ }))
    expect(calls).toHaveLength(0)
  })

  it("a revoked or expired pass keeps its buttons (the voided pass is still the person's)", () => {
    render(<DigitalIdCard name="Ana" id="PS-0000-0000-01" verified={false} ended="Revocado" userId="7" />)
    expect(screen.getByRole('button', { name: /Apple Wallet/ })).toBeEnabled()
    expect(screen.queryByTestId('wallet-locked')).not.toBeInTheDocument()
  })

  it('alerts when the wallet buttons have no user id', async () => {
    render(<DigitalIdCard name="Ana" id="PS-0000-0000-01" verified />)
    await userEvent.click(screen.getByRole('button', { name: /Apple Wallet/ }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: ID de usuario no disponible')
  })

  it('reports the Apple Wallet server error', async () => {
    mockApi({ 'GET /api/wallet/apple/7': { status: 409, json: { error: 'Verificación incompleta' } } })
    render(<DigitalIdCard name="Ana" id="PS-0000-0000-01" verified userId="7" />)
    await userEvent.click(screen.getByRole('button', { name: /Apple Wallet/ }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Error al generar pase para Apple Wallet: Verificación incompleta',
    )
  })

  it('shows the Google Wallet link to copy when the popup is blocked', async () => {
    mockApi({ 'GET /api/wallet/google/7': { json: { success: true, addToWalletUrl: 'https://pay.google.com/gp/v/save/x' } } })
    vi.stubGlobal('open', vi.fn(() => null))
    render(<DigitalIdCard name="Ana" id="PS-0000-0000-01" verified userId="7" />)
    await userEvent.click(screen.getByRole('button', { name: /Google Wallet/ }))
    expect(await screen.findByDisplayValue('https://pay.google.com/gp/v/save/x')).toBeInTheDocument()
  })

  it('names the pass file with the product prefix and the name without spaces', () => {
    expect(applePassFileName('María Fernanda López')).toBe('PerfilSeguroMaríaFernandaLópez.pkpass')
  })
})
