import type { ReactNode } from 'react'
import { Button } from '@/components/ui/button'
import type { QueryState } from '@/components/ui/query-rows'
import { QueryTable, type TableColumn } from '@/components/ui/table'
import { serverMessage } from '@/lib/api-client'

/** The time zone line under a table with dates. */
export function TimeZoneNote() {
  return <p className="text-xs text-base-content/60">Fechas y horas de la Ciudad de México.</p>
}

/** What PagedTableFooter reads of an infinite query. */
export type PagedQuery = { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown }

/** Under a paged table: the time zone line and, while the server has more, 'Cargar más'. */
export function PagedTableFooter({ query }: { query: PagedQuery }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <TimeZoneNote />
      {query.hasNextPage && (
        <Button
          variant="outline"
          size="sm"
          onClick={() => query.fetchNextPage()}
          disabled={query.isFetchingNextPage}
          pending={query.isFetchingNextPage}
        >
          Cargar más
        </Button>
      )}
    </div>
  )
}

/** A console table over one query: QueryTable with the server's message on an error. */
export function ConsoleTable({
  columns,
  query,
  errorText,
  isEmpty,
  empty,
  children,
}: {
  columns: TableColumn[]
  query: QueryState & { error: unknown }
  errorText: string
  isEmpty: boolean
  empty: ReactNode
  children: ReactNode
}) {
  return (
    <QueryTable columns={columns} query={query} error={serverMessage(query.error, errorText)} isEmpty={isEmpty} empty={empty}>
      {children}
    </QueryTable>
  )
}
