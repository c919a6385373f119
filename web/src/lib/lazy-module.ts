// Modules a screen can paint without (a phone-number library, a validation library): loaded after
// the first paint — when the browser is idle or on first use, whichever comes first — so their
// weight stays out of the page's initial JavaScript (issue 38).

/** A module loaded on demand, once. */
export type LazyModule<M> = {
  /** Starts loading (once; again after a failure) and resolves to the module. */
  load: () => Promise<M>
  /** The module once it has loaded, else undefined. */
  current: () => M | undefined
}

const all: LazyModule<unknown>[] = []

/** lazyModule wraps a dynamic import: `lazyModule(() => import('./heavy'))` puts ./heavy in its own chunk. */
export function lazyModule<M>(importer: () => Promise<M>): LazyModule<M> {
  let loaded: M | undefined
  let pending: Promise<M> | undefined
  const m: LazyModule<M> = {
    load: () =>
      (pending ??= importer().then(
        (mod) => (loaded = mod),
        (err: unknown) => {
          pending = undefined // a later use tries again (e.g. after a dropped connection)
          throw err
        },
      )),
    current: () => loaded,
  }
  all.push(m)
  return m
}

/**
 * whenIdle calls fn once the browser has nothing else to do (after the first paint, at the latest
 * after 3 s), and returns a function that cancels the wait.
 */
export function whenIdle(fn: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(fn, { timeout: 3000 })
    return () => window.cancelIdleCallback(id)
  }
  const id = window.setTimeout(fn, 500)
  return () => window.clearTimeout(id)
}

/** loadWhenIdle starts loading m when the browser is idle (see whenIdle); a failure is left for the first use to report. */
export function loadWhenIdle(m: LazyModule<unknown>): () => void {
  if (m.current()) return () => {}
  return whenIdle(() => void m.load().catch(() => {}))
}

/**
 * lazyResolver is a react-hook-form resolver whose rules live in a lazy module: the first
 * validation waits for the module; once loaded, validation runs as if it had been imported.
 */
export function lazyResolver<M, R extends (...args: never[]) => unknown>(m: LazyModule<M>, pick: (mod: M) => R): R {
  return ((...args: Parameters<R>) => {
    const mod = m.current()
    return mod ? pick(mod)(...args) : m.load().then((loaded) => pick(loaded)(...args))
  }) as R
}

/** preloadModules loads every lazy module (used by the test setup, as preloadRoutes is). */
export function preloadModules(): Promise<unknown[]> {
  return Promise.all(all.map((m) => m.load()))
}
