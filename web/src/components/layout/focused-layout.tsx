import { Suspense } from 'react'
import { Outlet } from 'react-router-dom'
import { ShieldCheck } from 'lucide-react'
import { LegalPageLink, PRIVACY_PATH } from '@/components/legal/legal-links'
import { PRODUCT_NAME } from '@/lib/config'

/**
 * The frame of a focused flow (a partner's hosted verification, /conectar), as hosted checkouts
 * have: whose page this is and a discreet link to the privacy notice, nothing else. No main
 * navigation, developer banner or footer links: on a phone the step and its button are on the
 * first screen, and the popup's first paint needs none of the site's header code.
 */
export function FocusedLayout() {
  return (
    <div className="flex min-h-screen flex-col bg-base-100 text-base-content">
      <header className="border-b border-base-300">
        <p className="mx-auto flex max-w-lg items-center gap-2 px-4 py-3 text-sm font-semibold text-primary">
          <ShieldCheck className="size-5 shrink-0" aria-hidden />
          {PRODUCT_NAME}
        </p>
      </header>
      <main className="flex-1">
        <Suspense fallback={<p className="py-16 text-center" role="status">Cargando…</p>}>
          <Outlet />
        </Suspense>
      </main>
      <footer className="mx-auto w-full max-w-lg px-4 pb-6 text-center text-xs text-base-content/70">
        <LegalPageLink to={PRIVACY_PATH}>Aviso de privacidad</LegalPageLink>
      </footer>
    </div>
  )
}
