import { Suspense, useEffect } from 'react'
import { Outlet, useLocation } from 'react-router-dom'
import { Footer } from './footer'
import { Header } from './header'
import { visibleSectionLinks } from './section-links'

/**
 * Header and footer around every screen (SPEC §2); scrolls to a #hash after navigation, else
 * opens the new page at its top.
 * showPricing false drops the #precios anchors (payments are off: no prices anywhere).
 */
export function MainLayout({ showPricing = true }: { showPricing?: boolean }) {
  const { pathname, hash } = useLocation()
  const links = visibleSectionLinks(showPricing)

  useEffect(() => {
    if (hash) document.getElementById(hash.slice(1))?.scrollIntoView?.()
    // A new page opens at its top at once: with the page's smooth scrolling (index.css, for the
    // anchors) a legal page opened from the footer was seen scrolling up from the bottom.
    else window.scrollTo?.({ top: 0, left: 0, behavior: 'instant' })
  }, [pathname, hash])

  return (
    <div className="flex min-h-screen flex-col bg-base-100 text-base-content">
      <Header sectionLinks={links} />
      {/* At least a screen tall, so the footer starts below the fold and does not jump while a
          screen loads its chunk or data (layout shift). */}
      <main className="min-h-[calc(100svh-4rem)] flex-1">
        {/* Screens load as separate chunks (app/lazy-route.ts); the header stays while one loads. */}
        <Suspense fallback={<ScreenLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer sectionLinks={links} />
    </div>
  )
}

/** What shows while a screen's chunk loads. */
function ScreenLoading() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center" role="status">
      <span className="loading loading-spinner loading-lg text-primary" aria-hidden />
      <span className="sr-only">Cargando…</span>
    </div>
  )
}
