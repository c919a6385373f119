import { useState } from 'react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { useToast } from '@/components/ui/toast'
import { serverMessage } from '@/lib/api-client'
import { cn } from '@/lib/cn'
import { formatDateTimeMx } from '@/lib/format'
import { useConsoleSignedOut, useSignedOutOn } from '../api/get-console-me'
import { avisoExportHref, useAvisos, useFileAviso, type Aviso } from '../api/avisos'
import { can, dayLabel, OPERATION_KIND, pesosLabel } from '../labels'
import type { ConsoleMe, Mode } from '../types'
import { ConsoleTable, TimeZoneNote } from './table-message'
import { TabHeading } from './tab-heading'

const STATE: Record<Aviso['state'], { text: string; variant: 'warning' | 'destructive' | 'success' }> = {
  pendiente: { text: 'Pendiente', variant: 'warning' },
  vencido: { text: 'Vencido', variant: 'destructive' },
  presentado: { text: 'Presentado', variant: 'success' },
}

const MONTHS = ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre']

/** 'AAAA-MM' as 'marzo de 2026'. */
function periodLabel(period: string): string {
  const [y, m] = period.split('-')
  const month = MONTHS[Number(m) - 1]
  return month && y ? `${month} de ${y}` : period
}

/** What an aviso reports: its operation, or the month without operations. */
function Subject({ aviso }: { aviso: Aviso }) {
  const op = aviso.operation
  return (
    <div className="text-sm">
      {op ? (
        <>
          <div className="font-medium">
            {OPERATION_KIND[op.kind]} · {pesosLabel(op.amount)}
          </div>
          <div className="break-words">{op.propertyReference}</div>
          <div className="text-xs text-base-content/60">Operación del {dayLabel(op.date)}</div>
        </>
      ) : (
        <div>Sin operaciones objeto de aviso</div>
      )}
      {aviso.period && <div className="text-xs text-base-content/60">Mes que se informa: {periodLabel(aviso.period)}</div>}
      {aviso.alert && <div className="text-xs text-error">{aviso.alert}</div>}
    </div>
  )
}

/** Marking one aviso as filed: the SAT's folio, then the server. */
function FileForm({ aviso, mode }: { aviso: Aviso; mode: Mode }) {
  const file = useFileAviso(mode)
  const { toast } = useToast()
  const signedOut = useConsoleSignedOut()
  const [folio, setFolio] = useState('')
  const [error, setError] = useState<string | undefined>()
  const submit = (e: React.FormEvent) => {
    e.preventDefault()
    const value = folio.trim()
    if (!/^[A-Za-z0-9][A-Za-z0-9/_.-]{0,59}$/.test(value)) {
      setError('Escribe el folio del acuse del SAT: de 1 a 60 letras, números, guiones o diagonales.')
      return
    }
    setError(undefined)
    file.mutate(
      { id: aviso.id, acknowledgement: value },
      {
        onSuccess: () => toast({ title: 'Aviso marcado como presentado' }),
        onError: (err) => {
          if (signedOut(err)) return
          setError(serverMessage(err, 'No se pudo marcar como presentado.'))
        },
      },
    )
  }
  return (
    <form className="flex flex-wrap items-start gap-2" onSubmit={submit} noValidate>
      <Input
        aria-label={`Folio del acuse del aviso ${aviso.id}`}
        placeholder="Folio del acuse"
        className="input-sm w-40"
        value={folio}
        invalid={!!error}
        onChange={(e) => setFolio(e.target.value)}
      />
      <Button type="submit" size="sm" disabled={file.isPending}>
        Marcar como presentado
      </Button>
      {error && (
        <p className="w-full text-xs text-error" role="status">
          {error}
        </p>
      )}
    </form>
  )
}

/** "Avisos": what the platform owes the SAT in the mode, overdue ones highlighted; propietario and cumplimiento only. */
export function AvisosTab({ me, mode }: { me: ConsoleMe; mode: Mode }) {
  const allowed = can(me, 'compliance')
  const avisos = useAvisos(mode, allowed)
  useSignedOutOn(avisos.error)
  const where = mode === 'test' ? 'de prueba' : 'de producción'
  const rows = avisos.data?.data ?? []
  const overdue = rows.filter((a) => a.state === 'vencido').length

  return (
    <div className="space-y-6">
      <TabHeading id="avisos-title" title={`Avisos ${where}`}>
        Lo que tu negocio debe presentar en el portal del SAT: avisos por umbral (día 17 del mes siguiente a la operación), de
        operación sospechosa (24 horas desde que se confirma una coincidencia) e informes de los meses sin operaciones objeto de
        aviso. Descarga cada uno en CSV y, una vez presentado, anota el folio del acuse.
      </TabHeading>
      {!allowed ? (
        <p className="text-sm text-base-content/70">Solo los roles Propietario y Cumplimiento ven y presentan los avisos.</p>
      ) : (
        <>
          {overdue > 0 && (
            <p className="font-medium text-error" role="status">
              {overdue === 1 ? '1 aviso vencido' : `${overdue} avisos vencidos`}: preséntalos cuanto antes.
            </p>
          )}
          <ConsoleTable
            columns={['Tipo', 'Qué se informa', 'Fecha límite', 'Estado', 'Acciones']}
            query={avisos}
            errorText="No pudimos cargar tus avisos."
            isEmpty={rows.length === 0}
            empty={<>No hay avisos {where} por ahora.</>}
          >
            {rows.map((a) => (
              <tr key={a.id} data-testid="aviso-row" className={cn(a.state === 'vencido' && 'bg-error/10')}>
                <td className="font-medium">{a.kindText}</td>
                <td className="min-w-56">
                  <Subject aviso={a} />
                </td>
                <td className="whitespace-nowrap">{formatDateTimeMx(a.dueAt)}</td>
                <td>
                  <Badge variant={STATE[a.state].variant} className="badge-sm whitespace-nowrap">
                    {STATE[a.state].text}
                  </Badge>
                  {a.acknowledgement && <div className="text-xs text-base-content/70">Folio {a.acknowledgement}</div>}
                </td>
                <td className="space-y-2">
                  <a className="link text-sm" href={avisoExportHref(a.id, mode)} download>
                    Descargar CSV
                  </a>
                  {a.state !== 'presentado' && <FileForm aviso={a} mode={mode} />}
                </td>
              </tr>
            ))}
          </ConsoleTable>
          <TimeZoneNote />
        </>
      )}
    </div>
  )
}
