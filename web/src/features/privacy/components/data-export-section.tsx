import { useState } from 'react'
import { Download } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Badge, type BadgeVariant } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { serverMessage } from '@/lib/api-client'
import { formatDateTimeMx } from '@/lib/format'
import { useDataExports, type DataExportStatus } from '../api/get-data-exports'
import { useRequestDataExport } from '../api/request-data-export'
import { MyDataSection } from './my-data-section'

/** The export states in Spanish. */
export const exportStatusLabel: Record<DataExportStatus, string> = {
  queued: 'En preparación',
  ready: 'Enviado a tu correo',
  downloaded: 'Descargado',
  expired: 'Vencido',
  failed: 'No se pudo preparar',
}

const exportStatusVariant: Record<DataExportStatus, BadgeVariant> = {
  queued: 'warning',
  ready: 'success',
  downloaded: 'outline',
  expired: 'outline',
  failed: 'destructive',
}

/** "Descargar mis datos" (acceso): asks for a copy of one's data by e-mail and follows the latest request. */
export function DataExportSection({ userId }: { userId: string }) {
  const exports = useDataExports(userId)
  const request = useRequestDataExport()
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null)
  const latest = exports.data?.[0]

  const submit = () =>
    request.mutate(userId, {
      onSuccess: (res) => setResult({ ok: true, text: res.message }),
      onError: (err) => setResult({ ok: false, text: serverMessage(err, 'No pudimos pedir tus datos. Intenta de nuevo.') }),
    })

  return (
    <MyDataSection title="Descargar mis datos" icon={Download} testId="data-export">
      <p className="text-base-content/80">
        Te enviamos a tu correo un archivo con todos tus datos. El enlace sirve una sola vez y vence en 24 horas. Puedes pedirlo
        una vez al día.
      </p>
      {latest && (
        <p className="flex flex-wrap items-center gap-2" data-testid="latest-export">
          <span className="text-base-content/70">Última solicitud: {formatDateTimeMx(latest.requestedAt)}</span>
          <Badge variant={exportStatusVariant[latest.status]}>{exportStatusLabel[latest.status]}</Badge>
          {latest.status === 'ready' && latest.expiresAt && (
            <span className="text-base-content/70">El enlace vence el {formatDateTimeMx(latest.expiresAt)}.</span>
          )}
        </p>
      )}
      {/* "Estamos preparando tus datos" holds only while they are being prepared; the badge says what came of it. */}
      {result && (!result.ok || latest?.status === 'queued') && (
        <Alert variant={result.ok ? 'success' : 'destructive'}>{result.text}</Alert>
      )}
      <Button variant="outline" onClick={submit} disabled={request.isPending || latest?.status === 'queued'}>
        {request.isPending ? <span className="loading loading-spinner loading-sm" /> : <Download className="size-4" aria-hidden />}
        Descargar mis datos
      </Button>
    </MyDataSection>
  )
}
