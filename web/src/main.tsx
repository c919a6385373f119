import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/app'
import { applyTheme, currentTheme } from './lib/theme'
import './index.css'

// index.html already set the theme before paint; this keeps both in step.
applyTheme(currentTheme())

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
