import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/app'
import { applyTheme, currentTheme } from './lib/theme'
import './index.css'

// index.html already set the theme before paint; this keeps both in step.
applyTheme(currentTheme())

// The first render runs as a transition, so React yields to the browser between pieces of work
// instead of blocking the main thread in one long task (total blocking time, issue 9).
const root = createRoot(document.getElementById('root')!)
startTransition(() => {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  )
})
