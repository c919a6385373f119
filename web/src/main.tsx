import { StrictMode, startTransition, useEffect, type ReactNode } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { App } from './app/app'
import { preloadRoute } from './app/router'
import { applyTheme, currentTheme } from './lib/theme'
import './index.css'

// index.html already set the theme before paint; this keeps both in step.
applyTheme(currentTheme())

const container = document.getElementById('root')!
// index.html may have painted a prerendered screen (/login, /register: an inert copy of what React
// renders first; vite.config.ts). React then hydrates that copy once the screen's chunk is here:
// it keeps the painted markup (no second layout of the page, nothing repainted or moved) and
// attaches to it; the copy takes input once that is done (Hydrated).
const shell = container.firstElementChild instanceof HTMLElement && container.firstElementChild.hasAttribute('inert') ? container.firstElementChild : null

/**
 * Lets the prerendered copy take input once React has attached to it. Until then it is inert and
 * hidden from assistive technology (aria-hidden): a field that looks ready would lose what is typed.
 */
function Hydrated({ children }: { children: ReactNode }) {
  useEffect(() => {
    shell?.removeAttribute('inert')
    shell?.removeAttribute('aria-hidden')
  }, [])
  return children
}

if (shell) {
  // As a transition, like the render below: hydration then yields to the browser between pieces.
  const hydrate = () =>
    startTransition(() => {
      hydrateRoot(
        shell,
        <StrictMode>
          <Hydrated>
            <App />
          </Hydrated>
        </StrictMode>,
      )
    })
  void preloadRoute(window.location.pathname).then(hydrate, hydrate)
} else {
  // The first render runs as a transition, so React yields to the browser between pieces of work
  // instead of blocking the main thread in one long task (total blocking time, issue 9).
  const render = () => {
    const root = createRoot(container)
    startTransition(() => {
      root.render(
        <StrictMode>
          <App />
        </StrictMode>,
      )
    })
  }
  // The server may have written the page's first screen into #root (the card of /verify/{id},
  // api/spa_public_card.go). It is not hydrated (its markup is not React's to the byte): React
  // replaces it with the same screen once that screen's chunk is here, never with the spinner.
  if (container.firstElementChild) void preloadRoute(window.location.pathname).then(render, render)
  else render()
}
