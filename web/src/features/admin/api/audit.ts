import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'

/** One page of the Bitácora. */
export type AuditPage = Schema<'AuditPageResponse'>

/** The Bitácora's filters (all optional; dates as YYYY-MM-DD). */
export interface AuditFilters {
  actor?: string
  action?: string
  target?: string
  from?: string
  to?: string
}

/** The query string of the filters (empty ones left out). */
export function auditQuery(f: AuditFilters, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries({ ...f, ...extra })) if (v && v.trim()) q.set(k, v.trim())
  return q.toString()
}

/** GET /api/admin/audit: a page of events, newest first. */
export function getAudit(f: AuditFilters, page: number, pageSize = 50): Promise<AuditPage> {
  return apiRequest<AuditPage>('GET', `/api/admin/audit?${auditQuery(f, { page: String(page), pageSize: String(pageSize) })}`)
}

/** The CSV export of the same filters (every matching event). */
export function auditCsvUrl(f: AuditFilters): string {
  return `/api/admin/audit?${auditQuery(f, { format: 'csv' })}`
}

/** Query options; the key holds the filters and the page. */
export function auditQueryOptions(f: AuditFilters, page: number) {
  return queryOptions({ queryKey: ['admin', 'audit', f, page], queryFn: () => getAudit(f, page), placeholderData: keepPreviousData })
}

/** A page of the Bitácora. */
export function useAudit(f: AuditFilters, page: number) {
  return useQuery(auditQueryOptions(f, page))
}
