import * as React from 'react'
import { act, fireEvent, renderHook, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { COPY_FEEDBACK_MS } from '@/features/integration/components/copy-button'
import { reactHookSample } from '@/features/integration/samples'
import { mockApi } from '@/testing/mock-api'
import { renderRoute, renderRouteWithUser } from '@/testing/render-route'
import { expectTextContents } from '@/testing/expect-text'

function stubClipboard(writeText: (text: string) => Promise<void>) {
  const spy = vi.fn(writeText)
  Object.defineProperty(navigator, 'clipboard', { value: { writeText: spy }, configurable: true })
  return spy
}

/** Turns the printed React sample into a hook function running on the real React. */
function loadHookSample(apiBase: string): () => {
  userId: number | null
  login: (input: { email?: string; phoneNumber?: string }) => Promise<{ userId: number }>
  verify: (code: string) => Promise<unknown>
} {
  const source = reactHookSample(apiBase)
    .replace(/^import .*$/m, '')
    .replace('export function usePerfilSeguro', 'function usePerfilSeguro')
  return new Function('useCallback', 'useState', `${source}\nreturn usePerfilSeguro;`)(React.useCallback, React.useState)
}

describe('/integration', () => {
  it('shows the hero and the four tabs, Resumen first, and hides the developer banner', async () => {
    renderRoute('/integration')
    expect(await screen.findByRole('heading', { level: 1, name: 'Widget de Validación Universal' })).toBeInTheDocument()
    const tabs = screen.getAllByRole('tab')
    expect(tabs.map((t) => t.textContent)).toEqual(['Resumen', 'Endpoints', 'Ejemplos', 'Guía'])
    expect(screen.getByRole('tab', { name: 'Resumen' })).toHaveAttribute('aria-selected', 'true')
    expect(document.title).toBe('Integración | Perfil Seguro')

    const panel = screen.getByRole('tabpanel')
    for (const text of ['Verificación SMS automática', 'Validación biométrica', 'Apple Wallet y Google Wallet', 'QR dinámico']) {
      expect(within(panel).getByText(text)).toBeInTheDocument()
    }
    const platforms = within(panel).getAllByRole('listitem').map((li) => li.textContent)
    expect(platforms).toEqual([
      expect.stringMatching(/CasaLista.*Implementado/),
      expect.stringMatching(/VentaDirecta.*Implementado/),
      expect.stringMatching(/ValorCasa.*Integrado/),
      expect.stringMatching(/Tu plataforma.*Disponible/),
    ])
    expect(within(panel).getByRole('alert')).toHaveTextContent(/solo aceptan solicitudes de dominios autorizados/)
    expect(within(panel).getByRole('alert')).toHaveTextContent(/contacta a nuestro equipo técnico/)
    expect(screen.queryByTestId('developer-banner')).not.toBeInTheDocument()
  })

  it('switches tabs: the three endpoints, the three samples and the four guide steps', async () => {
    const { user } = renderRouteWithUser('/integration')

    await user.click(await screen.findByRole('tab', { name: 'Endpoints' }))
    expect(screen.getByRole('tab', { name: 'Endpoints' })).toHaveAttribute('aria-selected', 'true')
    let panel = screen.getByRole('tabpanel')
    for (const path of ['/api/widget/login', '/api/widget/verify-code', '/api/widget/verify?email={email}']) {
      expect(within(panel).getByRole('heading', { name: path })).toBeInTheDocument()
    }
    expectTextContents(panel, ['"nextStep": "verify_code"', '"nextStep": "biometric_verification"', '"vigencia": "2027-11-21T18:30:00Z"'])

    await user.click(screen.getByRole('tab', { name: 'Ejemplos' }))
    panel = screen.getByRole('tabpanel')
    expect(within(panel).getAllByRole('figure')).toHaveLength(10)
    // The drop-in first: the script from this origin, the publishable key in the page, the secret key only on servers.
    expect(panel).toHaveTextContent(`<script src="${window.location.origin}/widget/v1.js"></script>`)
    expect(panel).toHaveTextContent("PerfilSeguro('pk_test_tu_llave_publicable')")
    for (const lang of ['node-sesion', 'php-sesion', 'go']) {
      const code = panel.querySelector(`figure[data-language="${lang}"] pre code`)?.textContent ?? ''
      expect(code).toContain('/api/partner/v1/verification-sessions')
      expect(code).toContain('Bearer')
    }
    expect(panel.querySelector('figure[data-language="html"]')?.textContent).not.toContain('sk_')
    expect(panel).toHaveTextContent(`const API_BASE = '${window.location.origin}';`)
    expect(panel).toHaveTextContent('No userId available')
    expect(panel).toHaveTextContent('$status !== 200')

    await user.click(screen.getByRole('tab', { name: 'Guía' }))
    panel = screen.getByRole('tabpanel')
    const steps = within(panel).getAllByRole('heading', { level: 2 }).map((h) => h.textContent)
    expect(steps).toEqual([
      'Configuración CORS',
      'Inicio de sesión / registro',
      'Verificación SMS',
      'Consulta de estado',
      'Aviso de privacidad',
      'Soporte técnico',
    ])
    const privacyUrl = `${window.location.origin}/privacidad`
    expect(within(panel).getByRole('link', { name: privacyUrl })).toHaveAttribute('href', privacyUrl)
    expect(panel).toHaveTextContent(/enlaza nuestro aviso de privacidad en ese mismo formulario/)
    expect(within(panel).getByRole('link', { name: 'soporte@perfilseguro.mx' })).toHaveAttribute('href', 'mailto:soporte@perfilseguro.mx')
    expect(within(panel).getByRole('link', { name: 'Contactar al equipo técnico' }).getAttribute('href')).toMatch(
      /^mailto:soporte@perfilseguro\.mx\?subject=/,
    )
  })

  it('moves between tabs with the arrow keys', async () => {
    renderRoute('/integration')
    const first = await screen.findByRole('tab', { name: 'Resumen' })
    fireEvent.keyDown(first, { key: 'ArrowLeft' })
    expect(screen.getByRole('tab', { name: 'Guía' })).toHaveAttribute('aria-selected', 'true')
    expect(screen.getByRole('tab', { name: 'Guía' })).toHaveFocus()
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Guía' }), { key: 'ArrowRight' })
    expect(screen.getByRole('tab', { name: 'Resumen' })).toHaveAttribute('aria-selected', 'true')
  })

  it('copies a sample and shows the check for exactly 2 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    // user-event installs its own clipboard on setup: stub ours after it.
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime })
    const writeText = stubClipboard(async () => undefined)
    renderRoute('/integration')
    await user.click(await screen.findByRole('tab', { name: 'Ejemplos' }))

    await user.click(screen.getByRole('button', { name: 'Copiar JavaScript' }))
    expect(writeText).toHaveBeenCalledTimes(1)
    expect(writeText.mock.calls[0][0]).toContain(`const API_BASE = '${window.location.origin}';`)
    expect(writeText.mock.calls[0][0]).toContain('async function loginUser')
    const copied = await screen.findByRole('button', { name: 'JavaScript copiado' })
    expect(within(copied).getByTestId('copy-check')).toBeInTheDocument()
    expect(screen.getAllByTestId('copy-check')).toHaveLength(1) // only the button pressed

    act(() => vi.advanceTimersByTime(COPY_FEEDBACK_MS - 50))
    expect(screen.getByRole('button', { name: 'JavaScript copiado' })).toBeInTheDocument()
    act(() => vi.advanceTimersByTime(60))
    expect(screen.getByRole('button', { name: 'Copiar JavaScript' })).toBeInTheDocument()
    expect(screen.queryByTestId('copy-check')).not.toBeInTheDocument()
  })

  it('says so when the clipboard refuses', async () => {
    const user = userEvent.setup()
    stubClipboard(async () => {
      throw new Error('denied')
    })
    renderRoute('/integration')
    await user.click(await screen.findByRole('tab', { name: 'Ejemplos' }))
    await user.click(screen.getByRole('button', { name: 'Copiar PHP' }))
    expect(await screen.findByText('Error al copiar')).toBeInTheDocument()
    expect(screen.getByText('No se pudo copiar al portapapeles')).toBeInTheDocument()
    expect(screen.queryByTestId('copy-check')).not.toBeInTheDocument()
  })
})

describe('the React hook sample as printed', () => {
  it("throws 'No userId available' when verify comes before login, then verifies with the login's userId", async () => {
    const { calls } = mockApi({
      'POST /api/widget/login': { json: { success: true, userId: 77, nextStep: 'verify_code' } },
      'POST /api/widget/verify-code': { json: { success: true, verified: true, data: { nextStep: 'biometric_verification' } } },
    })
    const usePerfilSeguro = loadHookSample('http://localhost')
    const { result } = renderHook(() => usePerfilSeguro())

    await expect(result.current.verify('123456')).rejects.toThrow('No userId available')
    expect(calls).toHaveLength(0)

    await act(async () => {
      await result.current.login({ email: 'ana@example.com' })
    })
    await waitFor(() => expect(result.current.userId).toBe(77))
    await act(async () => {
      await result.current.verify('123456')
    })
    expect(calls.map((c) => c.path)).toEqual(['/api/widget/login', '/api/widget/verify-code'])
    expect(calls[1].body).toEqual({ userId: 77, code: '123456' })
    expect(calls[1].init?.credentials).toBe('include')
  })
})
