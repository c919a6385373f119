import { afterEach, describe, expect, it, vi } from 'vitest'

afterEach(() => {
  document.head.querySelectorAll('meta[name="ps-onboarding-url"]').forEach((m) => m.remove())
  vi.resetModules()
})

describe('ONBOARDING_URL', () => {
  it("is the server's setting when the page carries one", async () => {
    const meta = document.createElement('meta')
    meta.name = 'ps-onboarding-url'
    meta.content = 'https://alta.example.mx/empezar'
    document.head.append(meta)
    const { ONBOARDING_URL } = await import('./config')
    expect(ONBOARDING_URL).toBe('https://alta.example.mx/empezar')
  })

  it("is this app's /register when the page carries none", async () => {
    const { ONBOARDING_URL } = await import('./config')
    expect(ONBOARDING_URL).toBe('/register')
  })
})
