import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { afterEach, beforeAll, vi } from 'vitest'
import { preloadRoutes } from '@/app/lazy-route'
import { preloadModules } from '@/lib/lazy-module'

// jsdom has no layout: scrolling is a no-op in tests.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo
Element.prototype.scrollIntoView = vi.fn()

// Route screens are lazy chunks (app/router.tsx), and some screens load modules after they paint
// (lib/lazy-module.ts); load both before the tests so a route renders
// in the same pass, as it did before the split.
beforeAll(async () => {
  await preloadRoutes()
  await preloadModules() // after the routes: their modules declare the lazy modules
})

afterEach(() => {
  cleanup()
  window.localStorage.clear()
  vi.unstubAllGlobals()
  vi.useRealTimers()
})
