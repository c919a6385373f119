import type { ReactNode } from 'react'
import { QueryRows, type QueryState } from '@/components/ui/query-rows'
import { serverMessage } from '@/lib/api-client'

/** The time zone line under a table with dates. */
export function TimeZoneNote() {
  return <p className="text-xs text-base-content/60">Fechas y horas de la Ciudad de México.</p>
}

/** A console table over one query: its header cells, then QueryRows (the server's message on an error). */
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
  query: QueryState & { error: unknown }
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
          <QueryRows columns={columns} query={query} error={serverMessage(query.error, errorText)} isEmpty={isEmpty} empty={empty}>
            {children}
          </QueryRows>
        </tbody>
      </table>
    </div>
  )
}
