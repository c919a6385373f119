import { useState } from 'react'
import { Moon, Sun } from 'lucide-react'
import { currentTheme, toggleTheme, type Theme } from '@/lib/theme'

/** Switches between the light and dark themes and remembers the choice. */
export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(() => currentTheme())
  const label = theme === 'dark' ? 'Cambiar a tema claro' : 'Cambiar a tema oscuro'
  return (
    <button
      type="button"
      className="btn btn-ghost btn-square btn-sm"
      onClick={() => setTheme(toggleTheme())}
      aria-label={label}
      title={label}
    >
      {theme === 'dark' ? <Sun className="size-5" aria-hidden /> : <Moon className="size-5" aria-hidden />}
    </button>
  )
}
