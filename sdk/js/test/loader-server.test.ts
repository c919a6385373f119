import { describe, expect, it } from 'vitest'
import { loadPerfilSeguro } from '../src/index.js'

// Server rendering: no window, no document.
describe('loadPerfilSeguro outside a browser', () => {
  it('resolves null without touching the DOM', async () => {
    expect(typeof window).toBe('undefined')
    await expect(loadPerfilSeguro('pk_test_abc123', { baseUrl: 'https://perfilseguro.example' })).resolves.toBeNull()
  })
})
