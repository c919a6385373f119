import type { Mode } from '../types'

/** The "Prueba / Producción" switch: which keys, sessions and usage the console shows. */
export function ModeToggle({ mode, onChange }: { mode: Mode; onChange: (mode: Mode) => void }) {
  return (
    <label className="flex cursor-pointer items-center gap-2 rounded-field border border-base-300 px-3 py-1.5 text-sm">
      <span className={mode === 'test' ? 'font-semibold text-warning' : 'text-base-content/60'}>Prueba</span>
      <input
        type="checkbox"
        className="toggle toggle-sm toggle-success"
        checked={mode === 'live'}
        onChange={(e) => onChange(e.target.checked ? 'live' : 'test')}
        aria-label="Ver datos de producción"
      />
      <span className={mode === 'live' ? 'font-semibold text-success' : 'text-base-content/60'}>Producción</span>
    </label>
  )
}
