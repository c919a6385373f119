import { describe, expect, it, vi } from 'vitest'
import { currentTheme, resolveTheme, toggleTheme } from './theme'

function stubSystemDark(dark: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: dark && query.includes('dark'), media: query }))
}

describe('theme rule', () => {
  it('prefers the saved choice over the system preference', () => {
    expect(resolveTheme('light', true)).toBe('light')
    expect(resolveTheme('dark', false)).toBe('dark')
  })

  it('falls back to the system dark preference, then light', () => {
    expect(resolveTheme(null, true)).toBe('dark')
    expect(resolveTheme(null, false)).toBe('light')
    expect(resolveTheme('purple', false)).toBe('light')
  })

  it('reads storage and the system preference', () => {
    stubSystemDark(true)
    expect(currentTheme()).toBe('dark')
    localStorage.setItem('theme', 'light')
    expect(currentTheme()).toBe('light')
  })

  it('toggling saves the choice and applies it to <html>', () => {
    stubSystemDark(false)
    expect(toggleTheme()).toBe('dark')
    expect(localStorage.getItem('theme')).toBe('dark')
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark')
    expect(toggleTheme()).toBe('light')
    expect(localStorage.getItem('theme')).toBe('light')
    expect(document.documentElement.getAttribute('data-theme')).toBe('light')
  })
})
