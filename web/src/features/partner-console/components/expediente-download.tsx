import { FileDown } from 'lucide-react'
import type { Mode } from '../types'

/** The URL of a person's LFPIORPI file (GET /api/socios/operations/{id}/people/{personId}/expediente). */
export function expedienteUrl(mode: Mode, operationId: string, personId: number, format: 'pdf' | 'json') {
  const q = new URLSearchParams({ format, mode })
  return `/api/socios/operations/${encodeURIComponent(operationId)}/people/${personId}/expediente?${q}`
}

/**
 * Downloads a person's expediente (propietario and cumplimiento: the server refuses the others and
 * records every download, which the file's own Bitácora then lists).
 */
export function ExpedienteDownload({ mode, operationId, personId }: { mode: Mode; operationId: string; personId: number }) {
  return (
    <div className="flex flex-wrap gap-2" data-testid="expediente-download">
      <a className="btn btn-outline btn-sm" href={expedienteUrl(mode, operationId, personId, 'pdf')} download>
        <FileDown className="size-4" aria-hidden />
        Descargar expediente (PDF)
      </a>
      <a className="btn btn-ghost btn-sm" href={expedienteUrl(mode, operationId, personId, 'json')} download>
        JSON
      </a>
    </div>
  )
}
