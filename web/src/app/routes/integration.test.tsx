import * as React from 'react'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { act, fireEvent, renderHook, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { COPY_FEEDBACK_MS } from '@/features/integration/components/copy-button'
import { reactHookSample } from '@/features/integration/samples'
import { DROP_IN_INTEGRITY } from '@/features/integration/session-samples'
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

  it('switches tabs: the sessions and the legacy endpoints, the samples and the guide', async () => {
    const { user } = renderRouteWithUser('/integration')

    await user.click(await screen.findByRole('tab', { name: 'Endpoints' }))
    expect(screen.getByRole('tab', { name: 'Endpoints' })).toHaveAttribute('aria-selected', 'true')
    let panel = screen.getByRole('tabpanel')
    expect(within(panel).getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Sesiones de verificación',
      'Webhooks',
      'Llamadas heredadas (widget de la primera versión)',
      'Verificar con billetera (OpenID4VP)',
    ])
    const sessions = within(panel).getByRole('region', { name: 'Sesiones de verificación' })
    for (const path of [
      '/api/partner/v1/verification-sessions',
      '/api/partner/v1/verification-sessions/{id}',
      '/api/partner/v1/verification-sessions?limit=20&startingAfter={id}',
      '/api/partner/v1/verification-sessions/{id}/cancel',
    ]) {
      expect(within(sessions).getByRole('heading', { name: path })).toBeInTheDocument()
    }
    // requiredLevel is the partner's choice; after a withdrawal the session answers its status only.
    expectTextContents(sessions, ['"requiredLevel": 3', '"shared": null', '"sharedReason": "withdrawn"'])
    expect(sessions).toHaveTextContent(/"sharedReason": "withdrawn" o "deleted", y sin proof/)
    expect(sessions).toHaveTextContent('Llave secreta (Authorization: Bearer sk_live_… o sk_test_…), solo desde tu servidor.')
    expect(panel).toHaveTextContent(/con encabezado Origin \(es decir, desde un navegador\) se rechaza con 401/)
    const webhooks = within(panel).getByRole('region', { name: 'Webhooks' })
    expect(webhooks).toHaveTextContent('X-PerfilSeguro-Signature: t=<segundos Unix>,v1=<HMAC-SHA256 hexadecimal de "<t>.<cuerpo>">')
    expect(webhooks).toHaveTextContent(/reenvío posterior a un retiro o a una eliminación de cuenta llega solo con el estado/)

    const legacy = within(panel).getByRole('region', { name: 'Llamadas heredadas (widget de la primera versión)' })
    expect(legacy).toHaveAttribute('id', 'llamadas-heredadas')
    for (const path of ['/api/widget/login', '/api/widget/verify-code', '/api/widget/verify?email={email}']) {
      expect(within(legacy).getByRole('heading', { name: path })).toBeInTheDocument()
    }
    expect(legacy).toHaveTextContent(
      'Deprecation: @1767225600, Sunset: Wed, 31 Mar 2027 00:00:00 GMT y Link: </integration#llamadas-heredadas>; rel="deprecation"',
    )
    expect(legacy).toHaveTextContent('Llave secreta (Authorization: Bearer sk_live_…), solo desde tu servidor')
    expectTextContents(legacy, ['"nextStep": "verify_code"', '"nextStep": "biometric_verification"', '"vigencia": "2027-11-21T18:30:00Z"'])

    await user.click(screen.getByRole('tab', { name: 'Ejemplos' }))
    panel = screen.getByRole('tabpanel')
    expect(within(panel).getAllByRole('figure')).toHaveLength(10)
    // The drop-in first: the script from this origin with its integrity hash, the publishable key
    // in the page, the secret key only on servers, which take the level as a parameter.
    expect(panel).toHaveTextContent(
      `<script src="${window.location.origin}/widget/v1.js" integrity="${DROP_IN_INTEGRITY}" crossorigin="anonymous"></script>`,
    )
    expect(panel).toHaveTextContent("PerfilSeguro('pk_test_tu_llave_publicable')")
    for (const lang of ['node-sesion', 'php-sesion', 'go']) {
      const code = panel.querySelector(`figure[data-language="${lang}"] pre code`)?.textContent ?? ''
      expect(code).toContain('/api/partner/v1/verification-sessions')
      expect(code).toContain('Bearer')
      expect(code).not.toMatch(/requiredLevel['"]?\s*(:|=>)\s*3/)
    }
    expect(panel.querySelector('figure[data-language="html"]')?.textContent).not.toContain('sk_')
    expect(panel).toHaveTextContent(`const API_BASE = '${window.location.origin}';`)
    expect(panel).toHaveTextContent('No userId available')
    expect(panel).toHaveTextContent('$status !== 200')

    await user.click(screen.getByRole('tab', { name: 'Guía' }))
    panel = screen.getByRole('tabpanel')
    const steps = within(panel).getAllByRole('heading', { level: 2 }).map((h) => h.textContent)
    expect(steps).toEqual([
      'Tus llaves, en la consola de socios',
      'Una sesión desde tu servidor',
      'El widget en tu página',
      'El resultado, en tu servidor y en tu webhook',
      'Prueba sin datos reales',
      '¿Usas el widget de la primera versión?',
      'Aviso de privacidad',
      'Soporte técnico',
    ])
    expect(within(panel).getByRole('link', { name: 'consola de socios' })).toHaveAttribute('href', `${window.location.origin}/socios`)
    expect(panel.querySelector('figure[data-language="html-guia"] pre code')?.textContent).toContain(`integrity="${DROP_IN_INTEGRITY}"`)
    expect(panel).toHaveTextContent(/"shared": null con "sharedReason": "withdrawn" o "deleted", sin proof/)
    expect(panel).toHaveTextContent(/un reenvío de la notificación llega en esa misma forma, solo con el estado/)
    expect(panel).toHaveTextContent(/con encabezado Origin se rechaza con 401/)
    expect(panel).toHaveTextContent('Bandeja de prueba')
    const privacyUrl = `${window.location.origin}/privacidad`
    expect(within(panel).getByRole('link', { name: privacyUrl })).toHaveAttribute('href', privacyUrl)
    expect(panel).toHaveTextContent(/enlaza nuestro aviso de privacidad en ese mismo formulario/)
    expect(within(panel).getByRole('link', { name: 'soporte@perfilseguro.mx' })).toHaveAttribute('href', 'mailto:soporte@perfilseguro.mx')
    expect(within(panel).getByRole('link', { name: 'Contactar al equipo técnico' }).getAttribute('href')).toMatch(
      /^mailto:soporte@perfilseguro\.mx\?subject=/,
    )
  })

  it('opens the legacy calls from #llamadas-heredadas, where the deprecation headers point, and from the guide', async () => {
    const scrolled: string[] = []
    const scrollIntoView = Element.prototype.scrollIntoView // jsdom has none
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this.id)
    }
    onTestFinished(() => {
      Element.prototype.scrollIntoView = scrollIntoView
    })
    const { user } = renderRouteWithUser('/integration#llamadas-heredadas')
    expect(await screen.findByRole('tab', { name: 'Endpoints' })).toHaveAttribute('aria-selected', 'true')
    await waitFor(() => expect(scrolled).toContain('llamadas-heredadas'))

    scrolled.length = 0
    await user.click(screen.getByRole('tab', { name: 'Guía' }))
    await user.click(screen.getByRole('link', { name: 'Ver las llamadas heredadas' }))
    expect(screen.getByRole('tab', { name: 'Endpoints' })).toHaveAttribute('aria-selected', 'true')
    await waitFor(() => expect(scrolled).toEqual(['llamadas-heredadas']))
  })

  it('prints the integrity hash of the drop-in the server serves (web/public/widget/v1.js)', () => {
    const file = readFileSync(join(__dirname, '../../../public/widget/v1.js'))
    expect(DROP_IN_INTEGRITY).toBe(`sha384-${createHash('sha384').update(file).digest('base64')}`)
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
    // Every call carries the publishable key: the origin alone is refused.
    for (const call of calls) expect(call.init?.headers).toMatchObject({ 'X-Partner-Key': 'pk_tu_llave_de_socio' })
  })
})
