import { lazy, type ComponentType, type LazyExoticComponent } from 'react'

type Loader<M> = () => Promise<M>

/** A route screen loaded on first use (its own chunk), with a preload for tests and prefetching. */
export type LazyRoute = LazyExoticComponent<ComponentType> & { preload: () => Promise<unknown> }

const all: LazyRoute[] = []

/**
 * lazyRoute splits a route screen into its own chunk: `lazyRoute(() => import('./routes/x'), 'XRoute')`.
 * Once preloaded it renders without suspending (React reads a settled thenable synchronously),
 * which keeps tests that render a route and query it at once working.
 */
export function lazyRoute<M extends Record<string, unknown>>(load: Loader<M>, name: keyof M & string): LazyRoute {
  let loaded: { default: ComponentType } | undefined
  let pending: Promise<{ default: ComponentType }> | undefined
  const preload = () =>
    (pending ??= load().then((m) => (loaded = { default: m[name] as ComponentType })))
  const component = lazy(() =>
    loaded
      ? // A settled thenable: React resolves the lazy component in the same render.
        ({ then: (resolve: (m: { default: ComponentType }) => void) => resolve(loaded!) } as unknown as Promise<{
          default: ComponentType
        }>)
      : preload(),
  ) as LazyRoute
  component.preload = preload
  all.push(component)
  return component
}

/** preloadRoutes loads every lazy route screen (used by the test setup). */
export function preloadRoutes(): Promise<unknown[]> {
  return Promise.all(all.map((r) => r.preload()))
}
