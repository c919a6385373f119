import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterEach, beforeAll, vi } from 'vitest'
import { preloadRoutes } from '@/app/lazy-route'
import { preloadModules } from '@/lib/lazy-module'

// findBy…/waitFor give a screen 3 s instead of 1 s: vitest runs one worker per core, and on a
// loaded 2-core machine a screen can take longer than a second to appear without being wrong.
configure({ asyncUtilTimeout: 3_000 })
// For the same reason a test may take 15 s (vitest's default is 5 s); files with longer flows set more.
vi.setConfig({ testTimeout: 15_000 })

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
