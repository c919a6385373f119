import { useState, type ReactNode } from 'react'
import { ArrowLeft, OctagonX } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { useToast } from '@/components/ui/toast'
import { formatDateMx, formatDateTimeMx } from '@/lib/format'
import { useSignedOutOn } from '../api/get-console-me'
import { useOperationDetail, useResolveHit } from '../api/aml-review'
import { BUSINESS_ROLE, can, dayLabel, OPERATION_KIND, PERSON_ROLE, pesosLabel } from '../labels'
import type { ConsoleMe, Hit, HitStatus, Mode, OperationPerson } from '../types'
import { ExpedienteDownload } from './expediente-download'
import { HitResolutionDialog, type PendingDecision } from './hit-resolution-dialog'

/** A hit's status in words. */
export const HIT_STATUS: Record<HitStatus, string> = {
  pendiente: 'Pendiente de revisar',
  descartada: 'Descartada',
  confirmada: 'Confirmada',
}

const STATUS_VARIANT = { pendiente: 'warning', descartada: 'outline', confirmada: 'destructive' } as const

function HitCard({ hit, actions, onDecide }: { hit: Hit; actions: boolean; onDecide: (d: 'descartada' | 'confirmada') => void }) {
  return (
    <li className="rounded-box border border-base-300 p-3" data-testid="hit">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium break-words">«{hit.matchedName}»</span>
        <Badge variant={STATUS_VARIANT[hit.status]} className="badge-sm">
          {HIT_STATUS[hit.status]}
        </Badge>
        {hit.blocking && (
          <Badge variant="outline" className="badge-sm">
            Lista de personas bloqueadas
          </Badge>
        )}
      </div>
      <p className="mt-1 text-sm text-base-content/70">
        {hit.list}
        {hit.version !== null && ` · versión ${hit.version}`} · registro {hit.entryId} · parecido {Math.round(hit.score * 100)} %
        {hit.subject === 'beneficiario' && ' · beneficiario controlador declarado'}
      </p>
      {hit.reasons.length > 0 && <p className="text-sm">Por qué: {hit.reasons.join('; ')}</p>}
      {hit.status !== 'pendiente' && (
        <p className="mt-1 text-sm">
          {hit.resolvedBy} · {formatDateTimeMx(hit.resolvedAt)}: {hit.resolutionReason}
        </p>
      )}
      {actions && hit.status === 'pendiente' && (
        <div className="mt-2 flex flex-wrap gap-2">
          <Button size="sm" variant="outline" onClick={() => onDecide('descartada')}>
            Descartar
          </Button>
          <Button size="sm" variant="destructive" onClick={() => onDecide('confirmada')}>
            Confirmar
          </Button>
        </div>
      )}
    </li>
  )
}

function PersonSection({
  person,
  actions,
  onDecide,
  download,
}: {
  person: OperationPerson
  actions: boolean
  onDecide: (d: PendingDecision) => void
  download?: ReactNode
}) {
  const s = person.screening
  const label = person.name ?? person.profileId ?? person.sessionId
  return (
    <section className="space-y-3 rounded-box border border-base-300 p-4" data-testid="person-screening">
      <div className="flex flex-wrap items-center gap-2">
        <h4 className="font-semibold break-words">
          {PERSON_ROLE[person.role]}: {label}
        </h4>
        {person.identityVerified && (
          <Badge variant="success" className="badge-sm">
            Identidad verificada con documento
          </Badge>
        )}
        {s?.locked && (
          <Badge variant="secondary" className="badge-sm">
            Expediente bloqueado
          </Badge>
        )}
      </div>
      {download}
      {!s ? (
        <p className="text-sm text-base-content/70">Aún no se ha consultado en las listas; se hace en unos minutos.</p>
      ) : (
        <>
          <div>
            <p className="text-sm font-medium">Listas consultadas</p>
            {s.lists.length === 0 ? (
              <p className="text-sm text-base-content/70">Aún no se ha consultado en las listas.</p>
            ) : (
              <ul className="text-sm">
                {s.lists.map((l) => (
                  <li key={`${l.subject}-${l.source}-${l.list}`}>
                    {l.list}
                    {l.version !== null && ` · versión ${l.version} del ${formatDateMx(l.versionDate)}`} · consultada el{' '}
                    {formatDateTimeMx(l.checkedAt)} · {l.candidates === 0 ? 'sin candidatos' : `${l.candidates} candidato(s)`}
                    {l.subject === 'beneficiario' && ' (beneficiario controlador)'}
                  </li>
                ))}
              </ul>
            )}
          </div>
          {s.hits.length === 0 ? (
            <p className="text-sm">Sin posibles coincidencias.</p>
          ) : (
            <ul className="space-y-2">
              {s.hits.map((h) => (
                <HitCard key={h.id} hit={h} actions={actions && !s.locked} onDecide={(decision) => onDecide({ hit: h, decision })} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  )
}

/** One operation's file as the compliance officer reviews it: people, lists consulted, possible hits and their rulings. */
export function OperationDetail({ me, mode, id, onBack }: { me: ConsoleMe; mode: Mode; id: string; onBack: () => void }) {
  const detail = useOperationDetail(mode, id)
  useSignedOutOn(detail.error)
  const resolve = useResolveHit(mode)
  const { toast } = useToast()
  const [pending, setPending] = useState<PendingDecision>(null)
  const op = detail.data
  const actions = can(me, 'compliance') && !op?.stopped

  return (
    <div className="space-y-4" data-testid="operation-detail">
      <Button variant="ghost" size="sm" onClick={onBack}>
        <ArrowLeft className="size-4" aria-hidden />
        Volver a las operaciones
      </Button>
      {detail.isPending && <p className="text-sm text-base-content/70">Cargando la operación…</p>}
      {detail.isError && (
        <Alert variant="destructive" title="No pudimos cargar la operación">
          Intenta de nuevo en unos momentos.
        </Alert>
      )}
      {op && (
        <>
          <div>
            <h3 className="text-lg font-semibold">
              {OPERATION_KIND[op.kind]} · {op.propertyReference}
            </h3>
            <p className="text-sm text-base-content/70">
              {pesosLabel(op.amount)}
              {op.monthly && ' al mes'} · {dayLabel(op.date)} · Tu negocio: {BUSINESS_ROLE[op.businessRole]} · se conserva hasta el{' '}
              {dayLabel(op.retentionUntil)}
            </p>
          </div>
          {op.stopped && (
            <Alert variant="destructive" icon={<OctagonX className="size-5" aria-hidden />} title="Operación detenida" data-testid="stopped-banner">
              {op.stoppedReason} · desde el {formatDateTimeMx(op.stoppedAt)}. No admite más cambios; el aviso de operación sospechosa vence 24
              horas después de la confirmación.
            </Alert>
          )}
          {op.people.map((p) => (
            <PersonSection
              key={p.id ?? p.sessionId}
              person={p}
              actions={actions}
              onDecide={setPending}
              download={p.id !== undefined && <ExpedienteDownload mode={mode} operationId={op.id} personId={p.id} />}
            />
          ))}
        </>
      )}
      <HitResolutionDialog
        pending={pending}
        onClose={() => setPending(null)}
        onSubmit={async (reason) => {
          if (!pending) return
          const res = await resolve.mutateAsync({ hitId: pending.hit.id, decision: pending.decision, reason })
          toast({
            title: res.operationStopped ? 'Coincidencia confirmada: operación detenida' : `Coincidencia ${HIT_STATUS[res.hit.status].toLowerCase()}`,
            description: res.aviso ? `El aviso de operación sospechosa vence el ${formatDateTimeMx(res.aviso.dueAt)}.` : undefined,
          })
        }}
      />
    </div>
  )
}
