import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest'

// The partners' drop-in, web/public/widget/v1.js (served at /widget/v1.js), run in jsdom as a
// partner's page would run it: window.open, matchMedia and location are stand-ins.

const SOURCE = readFileSync(join(__dirname, '../public/widget/v1.js'), 'utf8')

const BASE = 'https://perfilseguro.example'
const KEY = 'pk_test_4eC39HqLyjWDarjtT1zdp7dc'
const ID = 'vs_0123456789abcdef01234567'
const SECRET = `${ID}_secret_Zx9-k2_Qp`
const POPUP_URL = `${BASE}/conectar?pk=${KEY}#${SECRET}`
const REDIRECT_URL = `${BASE}/conectar?pk=${KEY}&mode=redirect#${SECRET}`
const BAD_KEY = 'Perfil Seguro: llave publicable no válida (pk_live_… o pk_test_…)'

type Result = { id: string; status: string }
type Client = { verify(clientSecret: unknown): Promise<Result> }
type PerfilSeguroStatic = {
  (publishableKey: unknown, options?: { baseUrl?: string; mode?: string }): Client
  version: string
  resultFromUrl(href?: string): Result | null
}
type FakePopup = { closed: boolean; close: () => void; location: { href: string } }

const win = window as unknown as { PerfilSeguro?: PerfilSeguroStatic }

/** Runs v1.js afresh, as if loaded by <script src="scriptSrc"> (or inline, without one). */
function load(scriptSrc?: string): PerfilSeguroStatic {
  delete win.PerfilSeguro
  if (scriptSrc) {
    const script = document.createElement('script')
    script.src = scriptSrc
    Object.defineProperty(document, 'currentScript', { configurable: true, get: () => script })
  }
  try {
    new Function(SOURCE)()
  } finally {
    // Drop the own property again: the prototype's getter (null outside a script) shows through.
    if (scriptSrc) Reflect.deleteProperty(document, 'currentScript')
  }
  return win.PerfilSeguro!
}

function fakePopup(): FakePopup {
  const popup: FakePopup = {
    closed: false,
    close: () => {
      popup.closed = true
    },
    location: { href: 'about:blank' },
  }
  return popup
}

let popup: FakePopup
let open: Mock
let assign: Mock

/** A phone-sized viewport or not, as (max-width: 640px) would answer. */
function viewport(phone: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({ matches: phone && query === '(max-width: 640px)', media: query })),
  )
}

/** A message event as the hosted page (or an impostor) would send it. */
function post(data: unknown, { origin = BASE, source = popup as unknown }: { origin?: string; source?: unknown } = {}) {
  const event = new MessageEvent('message', { origin, data })
  Object.defineProperty(event, 'source', { value: source })
  window.dispatchEvent(event)
}

/** Follows a promise's state without awaiting it. */
function track<T>(promise: Promise<T>) {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false }
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error) => Object.assign(state, { settled: true, error }),
  )
  return state
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

beforeEach(() => {
  popup = fakePopup()
  open = vi.fn(() => popup)
  assign = vi.fn()
  vi.stubGlobal('open', open)
  vi.stubGlobal('location', { href: 'https://socio.example/alta', origin: 'https://socio.example', assign })
  vi.stubGlobal('screenX', 100)
  vi.stubGlobal('screenY', 50)
  vi.stubGlobal('outerWidth', 1280)
  vi.stubGlobal('outerHeight', 900)
  viewport(false)
})

afterEach(() => {
  delete win.PerfilSeguro
})

describe('PerfilSeguro(publishableKey, options)', () => {
  it('throws for a key that is not a publishable key, and accepts pk_live_, pk_test_ and legacy pk_ + 24 hex', () => {
    const PerfilSeguro = load()
    for (const key of ['sk_live_abc', 'pk_live_', 'pk_prod_abc', 'pk_0123456789abcdef0123456', 'pk_0123456789abcdef0123456z', '', undefined, 42]) {
      expect(() => PerfilSeguro(key, { baseUrl: BASE }), String(key)).toThrow(BAD_KEY)
    }
    for (const key of ['pk_live_abc123', 'pk_test_abc123', 'pk_0123456789abcdef01234567']) {
      expect(typeof PerfilSeguro(key, { baseUrl: BASE }).verify, key).toBe('function')
    }
    expect(PerfilSeguro.version).toBe('1')
  })

  it('takes the base origin from its own script src, and options.baseUrl over it', () => {
    load('https://cdn.perfilseguro.example/widget/v1.js')(KEY).verify(SECRET)
    expect(open.mock.calls[0][0]).toBe(`https://cdn.perfilseguro.example/conectar?pk=${KEY}#${SECRET}`)

    load('https://cdn.perfilseguro.example/widget/v1.js')(KEY, { baseUrl: `${BASE}/algo/` }).verify(SECRET)
    expect(open.mock.calls[1][0]).toBe(POPUP_URL)
  })

  it('asks for baseUrl when it cannot tell where it was loaded from', () => {
    const PerfilSeguro = load()
    expect(() => PerfilSeguro(KEY)).toThrow(/baseUrl/)
    expect(() => PerfilSeguro(KEY, { baseUrl: 'javascript:alert(1)' })).toThrow(/baseUrl/)
  })
})

describe('verify(clientSecret) in a popup', () => {
  it('opens the centred popup at once, the key in the query and the client secret only in the fragment', () => {
    const client = load()(KEY, { baseUrl: BASE })
    void client.verify(SECRET)
    // Synchronously, still inside the click that called verify.
    expect(open).toHaveBeenCalledTimes(1)
    const [url, name, features] = open.mock.calls[0]
    expect(url).toBe(POPUP_URL)
    const parsed = new URL(url)
    expect(parsed.searchParams.get('pk')).toBe(KEY)
    expect(parsed.search).not.toContain('secret')
    expect(parsed.hash).toBe(`#${SECRET}`)
    expect(name).toBe('perfilseguro')
    // (1280 - 480) / 2 + 100 and (900 - 760) / 2 + 50
    expect(features).toBe('popup,width=480,height=760,left=500,top=120')
    expect(assign).not.toHaveBeenCalled()
  })

  it('rejects a malformed client secret without opening anything', async () => {
    const client = load()(KEY, { baseUrl: BASE })
    for (const secret of ['', 'vs_short_secret_abc', `${ID}_secret_`, `pi_0123456789abcdef01234567_secret_abc`, ID, 7]) {
      await expect(client.verify(secret), String(secret)).rejects.toThrow(/client secret/)
    }
    expect(open).not.toHaveBeenCalled()
    expect(assign).not.toHaveBeenCalled()
  })

  it('ignores messages from another origin, another window, another session or of another kind', async () => {
    const state = track(load()(KEY, { baseUrl: BASE }).verify(SECRET))
    const good = { type: 'perfilseguro:session', id: ID, status: 'completed' }

    post(good, { origin: 'https://impostor.example' })
    post(good, { origin: 'http://perfilseguro.example' })
    post(good, { source: window })
    post(good, { source: fakePopup() })
    post({ ...good, id: 'vs_ffffffffffffffffffffffff' })
    post({ ...good, type: 'otra:cosa' })
    post({ ...good, status: 'aprobado' })
    post(null)
    post('perfilseguro:session')
    await flush()
    expect(state.settled).toBe(false)

    post(good)
    await flush()
    expect(state).toEqual({ settled: true, value: { id: ID, status: 'completed' } })
  })

  it('resolves with the id and status only, whatever else the message carries', async () => {
    const pending = load()(KEY, { baseUrl: BASE }).verify(SECRET)
    post({ type: 'perfilseguro:session', id: ID, status: 'declined', name: 'Ana López', curp: 'LOAA800101MDFPNN09' })
    const result = await pending
    expect(result).toStrictEqual({ id: ID, status: 'declined' })
    expect(Object.keys(result)).toEqual(['id', 'status'])
  })

  it('resolves "closed" when the person closes the popup without a result, and stops listening', async () => {
    vi.useFakeTimers()
    const removed = vi.spyOn(window, 'removeEventListener')
    const state = track(load()(KEY, { baseUrl: BASE }).verify(SECRET))

    await vi.advanceTimersByTimeAsync(1500)
    expect(state.settled).toBe(false) // still open

    popup.closed = true
    await vi.advanceTimersByTimeAsync(1000)
    expect(state).toEqual({ settled: true, value: { id: ID, status: 'closed' } })
    expect(vi.getTimerCount()).toBe(0)
    expect(removed.mock.calls.some(([type]) => type === 'message')).toBe(true)
  })

  it('takes a result posted just before the popup closed over "closed"', async () => {
    vi.useFakeTimers()
    const state = track(load()(KEY, { baseUrl: BASE }).verify(SECRET))
    popup.closed = true
    await vi.advanceTimersByTimeAsync(500) // the poll sees it closed first
    post({ type: 'perfilseguro:session', id: ID, status: 'completed' })
    await vi.advanceTimersByTimeAsync(1000)
    expect(state).toEqual({ settled: true, value: { id: ID, status: 'completed' } })
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('verify(clientSecret) by redirect', () => {
  async function expectRedirect(pending: Promise<Result>) {
    const state = track(pending)
    expect(assign).toHaveBeenCalledTimes(1)
    expect(assign).toHaveBeenCalledWith(REDIRECT_URL)
    const url = new URL(assign.mock.calls[0][0])
    expect(url.searchParams.get('mode')).toBe('redirect')
    expect(url.search).not.toContain('secret')
    await flush()
    expect(state.settled).toBe(false) // the page is navigating away
  }

  it('goes to the hosted page in the same tab on a phone-sized screen', async () => {
    viewport(true)
    await expectRedirect(load()(KEY, { baseUrl: BASE }).verify(SECRET))
    expect(open).not.toHaveBeenCalled()
  })

  it('goes there when asked with mode: "redirect"', async () => {
    await expectRedirect(load()(KEY, { baseUrl: BASE, mode: 'redirect' }).verify(SECRET))
    expect(open).not.toHaveBeenCalled()
  })

  it('falls back to it when the browser blocks the popup', async () => {
    open.mockReturnValue(null)
    await expectRedirect(load()(KEY, { baseUrl: BASE }).verify(SECRET))
    expect(open).toHaveBeenCalledTimes(1)
  })
})

describe('PerfilSeguro.resultFromUrl', () => {
  it('reads the session and status the hosted flow appends to the returnUrl', () => {
    const PerfilSeguro = load()
    expect(PerfilSeguro.resultFromUrl(`https://socio.example/fin?x=1&perfilseguro_session=${ID}&perfilseguro_status=completed`)).toStrictEqual({
      id: ID,
      status: 'completed',
    })
    location.href = `https://socio.example/fin?perfilseguro_session=${ID}&perfilseguro_status=canceled`
    expect(PerfilSeguro.resultFromUrl()).toStrictEqual({ id: ID, status: 'canceled' })
  })

  it('returns null when the parameters are missing or malformed', () => {
    const PerfilSeguro = load()
    for (const href of [
      'https://socio.example/fin',
      `https://socio.example/fin?perfilseguro_session=${ID}`,
      `https://socio.example/fin?perfilseguro_session=${ID}&perfilseguro_status=aprobado`,
      'https://socio.example/fin?perfilseguro_session=vs_1&perfilseguro_status=completed',
      `https://socio.example/fin?perfilseguro_session=<img>&perfilseguro_status=completed`,
    ]) {
      expect(PerfilSeguro.resultFromUrl(href), href).toBeNull()
    }
  })
})

describe('<perfil-seguro-button>', () => {
  function button(attributes: Record<string, string>) {
    const element = document.createElement('perfil-seguro-button')
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value)
    document.body.append(element)
    const inner = element.shadowRoot!.querySelector('button')!
    return { element, inner }
  }

  function nextEvent(name: string) {
    return new Promise<CustomEvent>((resolve) => document.addEventListener(name, (event) => resolve(event as CustomEvent), { once: true }))
  }

  afterEach(() => document.body.replaceChildren())

  it('is registered once and renders a labelled button', () => {
    load()
    load() // a second copy of the script must not try to define it again
    expect(customElements.get('perfil-seguro-button')).toBeDefined()
    const { element, inner } = button({ 'publishable-key': KEY, 'client-secret': SECRET, 'base-url': BASE })
    expect(inner.type).toBe('button')
    expect(inner.textContent).toBe('Validar con Perfil Seguro')
    element.setAttribute('label', 'Validar mi identidad')
    expect(inner.textContent).toBe('Validar mi identidad')
  })

  it('opens the popup on click, stays disabled meanwhile, and dispatches perfilseguro:result', async () => {
    load()
    const { element, inner } = button({ 'publishable-key': KEY, 'client-secret': SECRET, 'base-url': BASE })
    const result = nextEvent('perfilseguro:result')

    inner.click()
    expect(open).toHaveBeenCalledWith(POPUP_URL, 'perfilseguro', expect.stringMatching(/^popup,width=480,height=760,/))
    expect(inner.disabled).toBe(true)
    inner.click() // ignored while open
    expect(open).toHaveBeenCalledTimes(1)

    post({ type: 'perfilseguro:session', id: ID, status: 'completed', name: 'Ana' })
    const event = await result
    expect(event.detail).toStrictEqual({ id: ID, status: 'completed' })
    expect(event.bubbles).toBe(true)
    expect(event.composed).toBe(true)
    expect(event.target).toBe(element)
    expect(inner.disabled).toBe(false)
  })

  it('with session-endpoint, opens a blank popup within the click and sends it on once the partner answers', async () => {
    load()
    let answer!: (response: Response) => void
    const fetchMock = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)))
    vi.stubGlobal('fetch', fetchMock)
    const { inner } = button({ 'publishable-key': KEY, 'session-endpoint': '/perfilseguro/sesion', 'base-url': BASE })
    const result = nextEvent('perfilseguro:result')

    inner.click()
    expect(open).toHaveBeenCalledWith('about:blank', 'perfilseguro', expect.any(String))
    expect(fetchMock).toHaveBeenCalledWith('/perfilseguro/sesion', expect.objectContaining({ method: 'POST' }))
    expect(popup.location.href).toBe('about:blank')

    answer(new Response(JSON.stringify({ clientSecret: SECRET }), { status: 200, headers: { 'Content-Type': 'application/json' } }))
    await vi.waitFor(() => expect(popup.location.href).toBe(POPUP_URL))
    expect(open).toHaveBeenCalledTimes(1)

    post({ type: 'perfilseguro:session', id: ID, status: 'in_progress' })
    expect((await result).detail).toStrictEqual({ id: ID, status: 'in_progress' })
  })

  it('dispatches perfilseguro:error when the key is wrong or the partner endpoint fails, closing the blank popup', async () => {
    load()
    const first = nextEvent('perfilseguro:error')
    button({ 'publishable-key': 'sk_live_nope', 'client-secret': SECRET, 'base-url': BASE }).inner.click()
    expect((await first).detail).toStrictEqual({ message: BAD_KEY })
    expect(open).not.toHaveBeenCalled()

    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}', { status: 500 })))
    const second = nextEvent('perfilseguro:error')
    const { inner } = button({ 'publishable-key': KEY, 'session-endpoint': '/perfilseguro/sesion', 'base-url': BASE })
    inner.click()
    expect((await second).detail.message).toMatch(/HTTP 500/)
    expect(popup.closed).toBe(true)
    expect(inner.disabled).toBe(false)
  })
})
