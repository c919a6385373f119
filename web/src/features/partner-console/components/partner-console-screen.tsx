import { lazy, Suspense, type ComponentType } from 'react'
import { lazyModule } from '@/lib/lazy-module'
import { consoleSessionMarked, useConsoleMe } from '../api/get-console-me'
import type { ConsoleMe } from '../types'
import { PartnerSignInScreen } from './partner-sign-in-screen'
import { QueryErrorAlert } from './query-error'

// The console itself (its tabs) is a chunk of its own: the sign-in, what most visits first paint,
// does not wait for it. A browser that holds a console session starts loading it at once.
const consolePanel = lazyModule(() => import('./console-panel'))
const ConsolePanel = lazy(() => {
  const loaded = consolePanel.current()
  type Panel = { default: ComponentType<{ me: ConsoleMe }> }
  // Once loaded (tests preload it), a settled thenable: React renders it in the same pass.
  if (loaded) return { then: (resolve: (m: Panel) => void) => resolve({ default: loaded.ConsolePanel }) } as unknown as Promise<Panel>
  return consolePanel.load().then((m) => ({ default: m.ConsolePanel }))
})
if (typeof window !== 'undefined' && consoleSessionMarked()) void consolePanel.load().catch(() => {})

function Loading() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <span className="loading loading-spinner loading-lg text-primary" role="status" aria-label="Cargando" />
    </div>
  )
}

/** /socios: the sign-in while nobody is signed in to the console, the console once someone is. */
export function PartnerConsoleScreen() {
  const me = useConsoleMe()
  if (me.isPending) return <Loading />
  if (me.isError) {
    return (
      <div className="mx-auto max-w-md px-4 py-16">
        <QueryErrorAlert title="No pudimos abrir la consola" query={me} fallback="Revisa tu conexión e intenta de nuevo." />
      </div>
    )
  }
  if (!me.data) return <PartnerSignInScreen />
  return (
    <Suspense fallback={<Loading />}>
      <ConsolePanel me={me.data} />
    </Suspense>
  )
}
