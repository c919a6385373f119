import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest, throwIfNotOk } from '@/lib/api-client'
import { useRefetchingMutation } from '@/lib/refetching-mutation'
import type { ColumnMapping, ListPreview, ListUploadResult, Mode, ScreeningList } from '../types'

// The console's Listas (api/partner_console_lists.go): propietario and cumplimiento upload the
// business's own lists (CSV or XLSX) with their columns mapped, and see every version.

/** Query options owning the lists of a mode. */
export function screeningListsQueryOptions(mode: Mode) {
  return queryOptions({
    queryKey: ['partner-console', 'screening-lists', mode],
    queryFn: () => apiRequest<{ mode: Mode; data: ScreeningList[] }>('GET', `/api/socios/screening-lists?mode=${mode}`),
  })
}

/** The lists the platform's people are screened against in a mode (asked for only by roles that manage them). */
export function useScreeningLists(mode: Mode, enabled: boolean) {
  return useQuery({ ...screeningListsQueryOptions(mode), enabled })
}

async function postForm<T>(url: string, form: FormData): Promise<T> {
  // No Content-Type: the browser writes multipart/form-data with its boundary.
  const res = await fetch(url, { method: 'POST', body: form, credentials: 'include' })
  await throwIfNotOk(res)
  return (await res.json()) as T
}

/** Reads a file's header to map its columns; nothing is imported. */
export function previewList(mode: Mode, file: File): Promise<ListPreview> {
  const form = new FormData()
  form.append('file', file)
  return postForm<ListPreview>(`/api/socios/screening-lists/preview?mode=${mode}`, form)
}

/** What an upload sends: the file, the list's name and the mapping. */
export type ListUpload = { file: File; name: string; mapping: ColumnMapping }

/** Uploads a list as a new version; the lists refetch. */
export function useUploadList(mode: Mode) {
  return useRefetchingMutation(({ file, name, mapping }: ListUpload) => {
    const form = new FormData()
    form.append('file', file)
    form.append('name', name)
    for (const [k, v] of Object.entries(mapping)) if (v) form.append(k, v)
    return postForm<ListUploadResult>(`/api/socios/screening-lists?mode=${mode}`, form)
  }, screeningListsQueryOptions(mode).queryKey)
}
