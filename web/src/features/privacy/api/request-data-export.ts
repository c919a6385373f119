import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { arcoRequestsQueryOptions } from './get-arco-requests'
import { dataExportsQueryOptions } from './get-data-exports'

/** POST /api/users/{id}/data-export answer (202): the export and what happens next. */
export type DataExportAccepted = { id: number; message: string }

/**
 * Asks for a copy of one's data, e-mailed when ready. One a day (429) and only with an e-mail
 * on file (409), each refusal with the server's message.
 */
export function requestDataExport(userId: string): Promise<DataExportAccepted> {
  return apiRequest<DataExportAccepted>('POST', `/api/users/${encodeURIComponent(userId)}/data-export`)
}

/** Requests an export, then refetches the exports and the requests (an export is an access request). */
export function useRequestDataExport() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: requestDataExport,
    onSettled: (_, __, userId) =>
      Promise.all([
        client.invalidateQueries({ queryKey: dataExportsQueryOptions(userId).queryKey }),
        client.invalidateQueries({ queryKey: arcoRequestsQueryOptions(userId).queryKey }),
      ]),
  })
}
