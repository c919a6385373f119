import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'

/** Where a data export stands: queued, e-mailed (ready), downloaded, expired or failed. */
export type DataExportStatus = 'queued' | 'ready' | 'downloaded' | 'expired' | 'failed'

/** One request to download one's data. */
export type DataExport = {
  id: number
  status: DataExportStatus
  requestedAt: string
  readyAt: string | null
  /** When the e-mailed link stops working. */
  expiresAt: string | null
}

/** Time between two checks while the latest export is being prepared. */
export const EXPORT_POLL_MS = 5000

/** GET /api/users/{id}/data-exports: the person's exports, newest first. */
export function getDataExports(userId: string): Promise<DataExport[]> {
  return apiRequest<DataExport[]>('GET', `/api/users/${encodeURIComponent(userId)}/data-exports`)
}

/** Query options owning a person's exports key; a new export invalidates it. */
export function dataExportsQueryOptions(userId: string) {
  return queryOptions({ queryKey: ['/api/users', userId, 'data-exports'], queryFn: () => getDataExports(userId) })
}

/** A person's exports, checked every 5 s while the latest is being prepared. */
export function useDataExports(userId: string) {
  return useQuery({
    ...dataExportsQueryOptions(userId),
    refetchInterval: (query) => (query.state.data?.[0]?.status === 'queued' ? EXPORT_POLL_MS : false),
  })
}
