import { describe, expect, it, vi } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { addToAppleWallet, addToGoogleWallet, isIosSafari } from './wallet-api'

describe('wallet calls', () => {
  it('downloads the pass as PerfilSeguro{name}.pkpass outside iOS Safari', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('PK', { status: 200, headers: { 'Content-Type': 'application/vnd.apple.pkpass' } })),
    )
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:pass'), revokeObjectURL: vi.fn() }))
    const names: string[] = []
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download)
    })
    expect(await addToAppleWallet('7', 'Ana María López')).toEqual({ kind: 'done' })
    expect(names).toEqual(['PerfilSeguroAnaMaríaLópez.pkpass'])
    click.mockRestore()
  })

  it('reports a pass still being built (202 JSON) instead of saving it', async () => {
    mockApi({ 'GET /api/wallet/apple/7': { status: 202, json: { success: false, error: 'Tu pase se está generando.' } } })
    expect(await addToAppleWallet('7', 'Ana')).toEqual({
      kind: 'error',
      message: 'Error al generar pase para Apple Wallet: Tu pase se está generando.',
    })
  })

  it('reports Apple and Google network failures', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))))
    expect(await addToAppleWallet('7', 'Ana')).toEqual({ kind: 'error', message: 'Error de conexión al generar pase para Apple Wallet' })
    expect(await addToGoogleWallet('7')).toEqual({ kind: 'error', message: 'Error de conexión al generar pase para Google Wallet' })
  })

  it('opens the Google link in a new tab', async () => {
    mockApi({ 'GET /api/wallet/google/7': { json: { success: true, addToWalletUrl: 'https://pay.google.com/gp/v/save/x' } } })
    const open = vi.fn(() => ({}) as Window)
    vi.stubGlobal('open', open)
    expect(await addToGoogleWallet('7')).toEqual({ kind: 'done' })
    expect(open).toHaveBeenCalledWith('https://pay.google.com/gp/v/save/x', '_blank')
  })

  it('shows the Google message on failure', async () => {
    mockApi({ 'GET /api/wallet/google/7': { status: 409, json: { success: false, message: 'Requiere nivel 3' } } })
    expect(await addToGoogleWallet('7')).toEqual({ kind: 'error', message: 'Error al generar pase para Google Wallet: Requiere nivel 3' })
  })

  it('recognises iOS Safari only', () => {
    const safari = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
    expect(isIosSafari(safari)).toBe(true)
    expect(isIosSafari(safari.replace('Version/17.0', 'CriOS/120.0'))).toBe(false)
    expect(isIosSafari('Mozilla/5.0 (X11; Linux x86_64) Chrome/120 Safari/537.36')).toBe(false)
  })
})
