// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { loadPerfilSeguro, type PerfilSeguroOptions, type PerfilSeguroStatic } from '../src/index.js'

// jsdom does not fetch <script src>: the tests play the browser's part, defining
// window.PerfilSeguro and firing the script's load (or error) event.

const BASE = 'https://perfilseguro.example'
const SRC = `${BASE}/widget/v1.js`
const KEY = 'pk_test_abc123'

function scripts(): HTMLScriptElement[] {
  return Array.from(document.querySelectorAll<HTMLScriptElement>('script')).filter((s) => s.src === SRC)
}

/** What v1.js does when it runs: define window.PerfilSeguro. */
function fakePerfilSeguro() {
  const verify = vi.fn()
  const factory = vi.fn((publishableKey: string, options?: PerfilSeguroOptions) => ({ verify, publishableKey, options }))
  window.PerfilSeguro = Object.assign(factory, { version: '1', resultFromUrl: () => null }) as unknown as PerfilSeguroStatic
  return factory
}

beforeEach(() => {
  delete window.PerfilSeguro
  document.head.replaceChildren()
  document.body.replaceChildren()
})

afterEach(() => {
  delete window.PerfilSeguro
})

describe('loadPerfilSeguro', () => {
  it('injects ${baseUrl}/widget/v1.js once, however many calls, and returns PerfilSeguro(publishableKey, {baseUrl})', async () => {
    const first = loadPerfilSeguro(KEY, { baseUrl: `${BASE}/` })
    const second = loadPerfilSeguro('pk_live_otra', { baseUrl: BASE })
    expect(scripts()).toHaveLength(1)
    const script = scripts()[0]
    expect(script.parentNode).toBe(document.head)
    expect(script.async).toBe(true)

    const factory = fakePerfilSeguro()
    script.dispatchEvent(new Event('load'))
    const client = await first
    expect(client).toMatchObject({ publishableKey: KEY, options: { baseUrl: BASE } })
    await second
    expect(factory.mock.calls).toEqual([
      [KEY, { baseUrl: BASE }],
      ['pk_live_otra', { baseUrl: BASE }],
    ])

    await loadPerfilSeguro(KEY, { baseUrl: BASE })
    expect(scripts()).toHaveLength(1)
    expect(factory).toHaveBeenCalledTimes(3)
  })

  it('reuses a v1.js script tag already on the page', async () => {
    const existing = document.createElement('script')
    existing.src = SRC
    document.body.append(existing)

    const pending = loadPerfilSeguro(KEY, { baseUrl: BASE })
    expect(scripts()).toEqual([existing])
    fakePerfilSeguro()
    existing.dispatchEvent(new Event('load'))
    await expect(pending).resolves.toMatchObject({ publishableKey: KEY })
  })

  it('does not inject anything when window.PerfilSeguro is already there', async () => {
    const factory = fakePerfilSeguro()
    await loadPerfilSeguro(KEY, { baseUrl: BASE })
    expect(scripts()).toHaveLength(0)
    expect(factory).toHaveBeenCalledWith(KEY, { baseUrl: BASE })
  })

  it('rejects when the script fails to load, and tries again on the next call', async () => {
    const failed = loadPerfilSeguro(KEY, { baseUrl: BASE })
    scripts()[0].dispatchEvent(new Event('error'))
    await expect(failed).rejects.toThrow(/no se pudo cargar/)
    expect(scripts()).toHaveLength(0)

    const retry = loadPerfilSeguro(KEY, { baseUrl: BASE })
    expect(scripts()).toHaveLength(1)
    fakePerfilSeguro()
    scripts()[0].dispatchEvent(new Event('load'))
    await expect(retry).resolves.toMatchObject({ publishableKey: KEY })
  })

  it('rejects a baseUrl that is not a URL, and a script that defines nothing', async () => {
    await expect(loadPerfilSeguro(KEY, { baseUrl: 'perfilseguro' })).rejects.toThrow(/baseUrl/)
    const pending = loadPerfilSeguro(KEY, { baseUrl: BASE })
    scripts()[0].dispatchEvent(new Event('load'))
    await expect(pending).rejects.toThrow(/no definió window.PerfilSeguro/)
  })
})
