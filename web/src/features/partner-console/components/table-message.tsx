import type { ReactNode } from 'react'
import { Button } from '@/components/ui/button'
import { serverMessage } from '@/lib/api-client'

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

/** What QueryTable reads of a query. */
type QueryState = { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown }

/**
 * A console table over one query: its header cells, then one row saying it is loading, what
 * failed (with a retry) or why it is empty — until there are rows to show.
 */
export function QueryTable({
  head,
  columns,
  query,
  errorText,
  isEmpty,
  empty,
  children,
}: {
  head: ReactNode
  columns: number
  query: QueryState
  errorText: string
  isEmpty: boolean
  empty: ReactNode
  children: ReactNode
}) {
  return (
    <div className="overflow-x-auto rounded-box border border-base-300">
      <table className="table">
        <thead>
          <tr>{head}</tr>
        </thead>
        <tbody>
          {query.isPending ? (
            <TableMessage colSpan={columns} state="loading" />
          ) : query.isError ? (
            <TableMessage colSpan={columns} state="error" onRetry={() => query.refetch()}>
              {serverMessage(query.error, errorText)}
            </TableMessage>
          ) : isEmpty ? (
            <TableMessage colSpan={columns} state="empty">
              {empty}
            </TableMessage>
          ) : (
            children
          )}
        </tbody>
      </table>
    </div>
  )
}
