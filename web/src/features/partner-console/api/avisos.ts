import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { useRefetchingMutation } from '@/lib/refetching-mutation'
import type { Mode, OperationKind } from '../types'

// LFPIORPI avisos (api/aml_avisos.go): what the platform owes the SAT, for propietario and
// cumplimiento only. The server syncs what is due each time the list is read.

/** api.AvisoView: an aviso and its deadline. */
export type Aviso = {
  id: string
  livemode: boolean
  kind: 'umbral' | 'sospechosa' | 'sin_operaciones'
  kindText: string
  operation?: { id: string; kind: OperationKind; amount: string; date: string; propertyReference: string }
  /** The month reported, 'AAAA-MM'. */
  period?: string
  alert?: string
  dueAt: string
  state: 'pendiente' | 'vencido' | 'presentado'
  filedAt?: string
  acknowledgement?: string
  filedBy?: string
}

/** Query options owning a mode's avisos. */
export function avisosQueryOptions(mode: Mode) {
  return queryOptions({
    queryKey: ['partner-console', 'avisos', mode],
    queryFn: () => apiRequest<{ mode: Mode; data: Aviso[] }>('GET', `/api/socios/avisos?mode=${mode}`),
  })
}

/** The platform's avisos of a mode (asked for only by roles that read compliance data). */
export function useAvisos(mode: Mode, enabled: boolean) {
  return useQuery({ ...avisosQueryOptions(mode), enabled })
}

/** Marks an aviso as filed with the SAT's folio; the list refetches. */
export function useFileAviso(mode: Mode) {
  return useRefetchingMutation(
    ({ id, acknowledgement }: { id: string; acknowledgement: string }) =>
      apiRequest<Aviso>('POST', `/api/socios/avisos/${id}/filing?mode=${mode}`, { acknowledgement }),
    avisosQueryOptions(mode).queryKey,
  )
}

/** Where an aviso's CSV for the SAT's portal is downloaded (the console's cookie authorises it). */
export function avisoExportHref(id: string, mode: Mode): string {
  return `/api/socios/avisos/${id}/export?mode=${mode}`
}
