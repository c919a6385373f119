import type { ReactNode } from 'react'
import { cn } from '@/lib/cn'
import { QueryRows, type QueryRowsProps } from './query-rows'

/** A header cell: its text, or its content and classes; false leaves an optional column out. */
export type TableColumn = string | { label: ReactNode; className?: string } | false

/** A horizontally scrolling daisyUI table (bordered unless said otherwise): one header row, then the body rows. */
export function Table({
  columns,
  className,
  bordered = true,
  caption,
  children,
}: {
  columns: TableColumn[]
  /** More classes for the table, e.g. table-sm. */
  className?: string
  /** Framed with a rounded border; false where the table sits inside a section of its own. */
  bordered?: boolean
  /** A line above the header, saying what the table holds. */
  caption?: ReactNode
  children: ReactNode
}) {
  return (
    <div className={cn('overflow-x-auto', bordered && 'rounded-box border border-base-300')}>
      <table className={cn('table', className)}>
        {caption && <caption className="p-3 text-left text-sm text-base-content/70">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column, i) =>
              column === false ? null : typeof column === 'string' ? (
                <th key={i}>{column}</th>
              ) : (
                <th key={i} className={column.className}>
                  {column.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  )
}

/** A Table over one query: QueryRows says it is loading, what failed or why it is empty, until there are rows. */
export function QueryTable({ columns, ...rows }: Omit<QueryRowsProps, 'columns'> & { columns: TableColumn[] }) {
  return (
    <Table columns={columns}>
      <QueryRows columns={columns.filter((c) => c !== false).length} {...rows} />
    </Table>
  )
}
