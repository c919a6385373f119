import * as React from 'react'
import { createHmac, timingSafeEqual } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { transformWithOxc } from 'vite'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { presentationServerSample, walletWidgetSample, webhookReceiverSample } from '@/features/integration/samples'
import { mockApi, refusal } from '@/testing/mock-api'
import { renderRouteWithUser } from '@/testing/render-route'

// The presentation request (OpenID4VP) on /integration: the endpoints, and the three samples run
// as printed against request mocks that mirror the Go routes.

const API = 'http://localhost'
const id = '5b0c7d52-3f1e-4c8a-9d3b-8e2f6a1c4d90'
const requestUri = `openid4vp://?client_id=x509_san_dns%3Alocalhost&request_uri=http%3A%2F%2Flocalhost%2Fapi%2Foid4vp%2Frequests%2F${id}`
const created = { id, requestUri, qrUrl: 'data:image/png;base64,iVBORw0KGgo=', expiresAt: '2026-11-24T18:35:00Z' }
const completed = {
  id,
  status: 'completed',
  claims: { name: 'María Fernanda López' },
  expiresAt: '2026-11-24T18:35:00Z',
  completedAt: '2026-11-24T18:31:12Z',
}

/** The partner's requests: created, then `pending` the given number of polls, then final. */
function presentationApi(pendingPolls: number, final: Record<string, unknown> = completed) {
  let polls = 0
  return mockApi({
    'POST /api/widget/presentations': { status: 201, json: created },
    [`GET /api/widget/presentations/${id}`]: () => {
      polls++
      return { json: polls <= pendingPolls ? { id, status: 'pending', expiresAt: created.expiresAt } : final }
    },
  })
}

/** Lets the mocked fetches and React settle, advancing fake time by ms. */
async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms)
  })
}

afterEach(() => {
  vi.useRealTimers()
})

describe('/integration presentation requests', () => {
  it('documents the two presentation endpoints and the three wallet samples', async () => {
    const { user } = renderRouteWithUser('/integration')
    await user.click(await screen.findByRole('tab', { name: 'Endpoints' }))
    let panel = screen.getByRole('tabpanel')
    expect(within(panel).getByRole('heading', { name: 'Verificar con billetera (OpenID4VP)' })).toBeInTheDocument()
    for (const path of ['/api/widget/presentations', '/api/widget/presentations/{id}']) {
      expect(within(panel).getByRole('heading', { name: path })).toBeInTheDocument()
    }
    expect(panel).toHaveTextContent('"claims": [ "name" ]')
    expect(panel).toHaveTextContent('"status": "completed"')

    await user.click(screen.getByRole('tab', { name: 'Ejemplos' }))
    panel = screen.getByRole('tabpanel')
    const section = within(panel).getByRole('heading', { name: 'Verificar con billetera (OpenID4VP)' }).closest('section')!
    const titles = within(section).getAllByRole('figure').map((f) => f.querySelector('figcaption span')?.textContent)
    expect(titles).toEqual(['Node.js: solicitud de presentación', 'Node.js: webhook', 'React: Verificar con billetera'])
    expect(section).toHaveTextContent(`const API_BASE = '${window.location.origin}';`)
    expect(section).toHaveTextContent('presentation.completed')
    expect(section).toHaveTextContent('X-PerfilSeguro-Signature')
  })
})

describe('the presentation server sample as printed', () => {
  it('creates the request with the secret key, saves the QR, polls every 2 seconds and prints the claims', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const { calls } = presentationApi(2)
    const writeFile = vi.fn(async () => undefined)
    const log = vi.fn()
    const source = presentationServerSample(API).replace(/^import .*$/m, '')
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor
    const run: Promise<void> = new AsyncFunction('writeFile', 'process', 'Buffer', 'console', source)(
      writeFile,
      { env: { PERFIL_SEGURO_SECRET_KEY: 'sk_live_casalista' } },
      Buffer,
      { log },
    )
    await advance(0)
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/widget/presentations'])
    expect(calls[0].body).toEqual({ claims: ['name'] })
    expect(calls[0].init?.headers).toEqual({ Authorization: 'Bearer sk_live_casalista', 'Content-Type': 'application/json' })
    expect(writeFile).toHaveBeenCalledWith('presentacion-qr.png', Buffer.from('iVBORw0KGgo=', 'base64'))
    expect(log).toHaveBeenCalledWith(requestUri)

    await advance(1999)
    expect(calls).toHaveLength(1) // not before 2 seconds
    await advance(1)
    expect(calls).toHaveLength(2)
    await advance(4000)
    await run
    expect(calls.map((c) => c.path)).toEqual(['/api/widget/presentations', ...Array(3).fill(`/api/widget/presentations/${id}`)])
    expect(calls[1].init?.headers).toEqual({ Authorization: 'Bearer sk_live_casalista' })
    expect(log).toHaveBeenLastCalledWith('completed', { name: 'María Fernanda López' })
  })
})

describe('the webhook receiver sample as printed', () => {
  type Reply = { status: number }
  /** Loads the sample with node:crypto, a stand-in server and a captured console. */
  function loadReceiver(secret: string) {
    let handler: (req: EventEmitter & { headers: Record<string, string> }, res: unknown) => void = () => undefined
    const listen = vi.fn()
    const createServer = (h: typeof handler) => {
      handler = h
      return { listen }
    }
    const log = vi.fn()
    const source = webhookReceiverSample().replace(/^import .*$/gm, '')
    new Function('createHmac', 'timingSafeEqual', 'createServer', 'process', 'Buffer', 'console', source)(
      createHmac,
      timingSafeEqual,
      createServer,
      { env: { WEBHOOK_SECRET: secret, PORT: '4000' } },
      Buffer,
      { log },
    )
    expect(listen).toHaveBeenCalledWith(4000)
    /** Delivers body with the given headers; resolves with the status answered. */
    const deliver = (body: string, headers: Record<string, string>) =>
      new Promise<Reply>((resolve) => {
        const req = Object.assign(new EventEmitter(), { headers })
        handler(req, { writeHead: (status: number) => ({ end: () => resolve({ status }) }) })
        req.emit('data', Buffer.from(body))
        req.emit('end')
      })
    return { deliver, log }
  }

  /** The header the Go server sends (perfilseguro.SignPartnerWebhook). */
  function sign(secret: string, t: number, body: string) {
    return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`
  }

  it('accepts a correctly signed presentation.completed once and refuses anything else', async () => {
    const secret = 'whsec_presenta'
    const { deliver, log } = loadReceiver(secret)
    const body = JSON.stringify({ event: 'presentation.completed', id, claims: { name: 'María Fernanda López' }, completedAt: completed.completedAt })
    const now = Math.floor(Date.now() / 1000)
    const headers = { 'x-perfilseguro-signature': sign(secret, now, body), 'x-perfilseguro-delivery': 'd-1' }

    expect(await deliver(body, headers)).toEqual({ status: 204 })
    expect(log).toHaveBeenCalledWith('Presentación', id, 'completada:', { name: 'María Fernanda López' })
    expect(await deliver(body, headers)).toEqual({ status: 204 }) // a retry of the same delivery
    expect(log).toHaveBeenCalledTimes(1)

    for (const bad of [
      { ...headers, 'x-perfilseguro-signature': sign('whsec_otro', now, body) },
      { ...headers, 'x-perfilseguro-signature': sign(secret, now - 6 * 60, body) },
      { ...headers, 'x-perfilseguro-signature': 'v1=abc' },
      { 'x-perfilseguro-delivery': 'd-2' },
    ]) {
      expect(await deliver(body, bad)).toEqual({ status: 401 })
    }
    expect(await deliver(body.replace('María', 'Mario'), { ...headers, 'x-perfilseguro-delivery': 'd-3' })).toEqual({ status: 401 })
    expect(log).toHaveBeenCalledTimes(1)
  })
})

describe('the widget "Verificar con billetera" sample as printed', () => {
  /** Compiles the printed JSX and returns the component running on the real React. */
  async function loadWidget(): Promise<React.FC<{ claims?: string[] }>> {
    const { code } = await transformWithOxc(walletWidgetSample(API), 'verificar-con-billetera.jsx', {
      jsx: { runtime: 'classic' },
    })
    const source = code.replace(/^import .*$/m, '').replace('export function VerificarConBilletera', 'function VerificarConBilletera')
    return new Function('React', 'useEffect', 'useState', `${source}\nreturn VerificarConBilletera;`)(
      React,
      React.useEffect,
      React.useState,
    )
  }

  it('shows the QR and the link, polls every 2 seconds and says it is done, with no personal data in the browser', async () => {
    const Widget = await loadWidget()
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    // What a browser call reads: the status, never the claims (those answer to the secret key).
    const { claims: _claims, ...browserView } = completed
    const { calls } = presentationApi(1, { ...browserView, note: 'Los datos compartidos se leen desde tu servidor con tu llave secreta.' })
    render(<Widget />)
    fireEvent.click(screen.getByRole('button', { name: 'Verificar con billetera' }))
    await advance(0)
    expect(screen.getByRole('img', { name: 'Código QR para verificar tu identidad con tu billetera digital' })).toHaveAttribute(
      'src',
      created.qrUrl,
    )
    expect(screen.getByRole('link', { name: 'Abrir en la billetera de este dispositivo' })).toHaveAttribute('href', requestUri)
    expect(screen.getByRole('status')).toHaveTextContent('Esperando la respuesta de tu billetera…')
    expect(calls).toHaveLength(1)
    expect(calls[0].body).toEqual({ claims: ['name'] })
    expect(calls[0].init?.credentials).toBe('include')

    await advance(2000)
    expect(calls).toHaveLength(2) // pending: the QR stays
    expect(screen.getByRole('img')).toBeInTheDocument()
    await advance(2000)
    expect(calls.map((c) => c.path)).toEqual(['/api/widget/presentations', ...Array(2).fill(`/api/widget/presentations/${id}`)])
    expect(calls[2].init?.credentials).toBe('include')
    expect(screen.queryByRole('img')).not.toBeInTheDocument()
    const result = screen.getByRole('status')
    expect(result).toHaveTextContent('Identidad verificada con tu billetera.')
    expect(result).toHaveTextContent('Compartiste tus datos: la plataforma los recibe en su servidor.')
    expect(result).not.toHaveTextContent('María')
    await advance(10_000)
    expect(calls).toHaveLength(3) // no polling after the end
  })

  it.each([
    [{ id, status: 'failed', error: 'La credencial fue revocada.', expiresAt: created.expiresAt }, 'No pudimos comprobar tu credencial: La credencial fue revocada.'],
    [{ id, status: 'expired', expiresAt: created.expiresAt }, 'La solicitud venció sin respuesta. Vuelve a intentarlo.'],
  ])('says why when the request ends as %o, and offers another try', async (final, message) => {
    const Widget = await loadWidget()
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    presentationApi(0, final)
    render(<Widget />)
    fireEvent.click(screen.getByRole('button', { name: 'Verificar con billetera' }))
    await advance(0)
    await advance(2000)
    expect(screen.getByRole('alert')).toHaveTextContent(message)
    expect(screen.getByRole('button', { name: 'Verificar con billetera' })).toBeEnabled()
  })

  it("shows the server's message when the request is refused", async () => {
    const Widget = await loadWidget()
    mockApi({
      'POST /api/widget/presentations': refusal(403, 'Solo una plataforma socia puede pedir datos de una credencial (llave X-Partner-Key o su dominio).'),
    })
    render(<Widget />)
    fireEvent.click(screen.getByRole('button', { name: 'Verificar con billetera' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Solo una plataforma socia puede pedir datos de una credencial')
    expect(screen.queryByRole('img')).not.toBeInTheDocument()
  })
})
