import type { ReactNode } from 'react'
import { Button } from '@/components/ui/button'

/** A table's one-row message: loading, an error with a retry, or why it is empty. */
export function TableMessage({
  colSpan,
  state,
  children,
  onRetry,
  loadingLabel = 'Cargando',
}: {
  colSpan: number
  state: 'loading' | 'error' | 'empty'
  children?: ReactNode
  onRetry?: () => void
  loadingLabel?: string
}) {
  return (
    <tr>
      <td colSpan={colSpan} className="py-8 text-center">
        {state === 'loading' ? (
          <span className="loading loading-spinner loading-md text-primary" role="status" aria-label={loadingLabel} />
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

/** What QueryRows reads of a query. */
export type QueryState = { isPending: boolean; isError: boolean; refetch: () => unknown }

/** Props of QueryRows: the table's column count, the query, and what to say while there are no rows. */
export type QueryRowsProps = {
  columns: number
  query: QueryState
  loadingLabel?: string
  error: ReactNode
  isEmpty: boolean
  empty: ReactNode
  children: ReactNode
}

/**
 * The body rows of a table over one query: one row saying it is loading, what failed (with a
 * retry) or why it is empty — until there are rows to show. QueryTable in table.tsx wraps it for every admin and console table.
 */
export function QueryRows({ columns, query, loadingLabel, error, isEmpty, empty, children }: QueryRowsProps) {
  if (query.isPending) return <TableMessage colSpan={columns} state="loading" loadingLabel={loadingLabel} />
  if (query.isError) {
    return (
      <TableMessage colSpan={columns} state="error" onRetry={() => query.refetch()}>
        {error}
      </TableMessage>
    )
  }
  if (isEmpty) {
    return (
      <TableMessage colSpan={columns} state="empty">
        {empty}
      </TableMessage>
    )
  }
  return <>{children}</>
}
