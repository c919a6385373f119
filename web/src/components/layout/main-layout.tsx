import { useEffect } from 'react'
import { Outlet, useLocation } from 'react-router-dom'
import { Footer } from './footer'
import { Header } from './header'

/** Header and footer around every screen (SPEC §2); scrolls to a #hash after navigation. */
export function MainLayout() {
  const { pathname, hash } = useLocation()

  useEffect(() => {
    if (hash) document.getElementById(hash.slice(1))?.scrollIntoView?.()
    else window.scrollTo?.(0, 0)
  }, [pathname, hash])

  return (
    <div className="flex min-h-screen flex-col bg-base-100 text-base-content">
      <Header />
      <main className="flex-1">
        <Outlet />
      </main>
      <Footer />
    </div>
  )
}
