import { readStorage, storageKeys, writeStorage } from './storage'

/** The two daisyUI themes the app ships. */
export type Theme = 'light' | 'dark'

/**
 * The theme rule of SPEC §4: a saved choice wins, else the system's dark
 * preference, else light. index.html runs the same rule before first paint.
 */
export function resolveTheme(saved: string | null, prefersDark: boolean): Theme {
  if (saved === 'light' || saved === 'dark') return saved
  return prefersDark ? 'dark' : 'light'
}

function systemPrefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches
}

/** The theme to show now, from storage and the system preference. */
export function currentTheme(): Theme {
  return resolveTheme(readStorage(storageKeys.theme), systemPrefersDark())
}

/** Puts the theme on <html> for daisyUI. */
export function applyTheme(theme: Theme): void {
  document.documentElement.setAttribute('data-theme', theme)
}

/** Switches light/dark, saves the choice and applies it; returns the new theme. */
export function toggleTheme(): Theme {
  const next: Theme = currentTheme() === 'dark' ? 'light' : 'dark'
  writeStorage(storageKeys.theme, next)
  applyTheme(next)
  return next
}
