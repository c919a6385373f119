import type { ReactNode } from 'react'
import { Button } from '@/components/ui/button'

/** A table's one-row message: loading, an error with a retry, or why it is empty. */
export function TableMessage({
  colSpan,
  state,
  children,
  onRetry,
}: {
  colSpan: number
  state: 'loading' | 'error' | 'empty'
  children?: ReactNode
  onRetry?: () => void
}) {
  return (
    <tr>
      <td colSpan={colSpan} className="py-8 text-center">
        {state === 'loading' ? (
          <span className="loading loading-spinner loading-md text-primary" role="status" aria-label="Cargando" />
        ) : state === 'error' ? (
          <div role="alert">
            <p className="text-error">{children}</p>
            {onRetry && (
              <Button variant="outline" size="sm" className="mt-3" onClick={onRetry}>
                Reintentar
              </Button>
            )}
          </div>
        ) : (
          <p className="text-base-content/70">{children}</p>
        )}
      </td>
    </tr>
  )
}

/** The time zone line under a table with dates. */
export function TimeZoneNote() {
  return <p className="text-xs text-base-content/60">Fechas y horas de la Ciudad de México.</p>
}
