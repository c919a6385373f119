import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Field, Input, Select } from '@/components/ui/input'
import { useToast } from '@/components/ui/toast'
import { errorBody, serverMessage } from '@/lib/api-client'
import { formatDateMx } from '@/lib/format'
import { useConsoleSignedOut, useSignedOutOn } from '../api/get-console-me'
import { useCreateOperation, useOperationCandidates, useOperations } from '../api/operations'
import { BUSINESS_ROLE, can, dayLabel, OPERATION_KIND, PERSON_ROLE, pesosLabel } from '../labels'
import { operationSchema } from '../schemas'
import type { BusinessRole, ConsoleMe, Mode, Operation, OperationKind, OperationPersonRole } from '../types'
import { usePendingHits } from '../api/aml-review'
import { OperationDetail } from './operation-detail'
import { ConsoleTable, PagedTableFooter } from './table-message'
import { RiskBadge } from './risk-badge'
import { TabHeading } from './tab-heading'

const scalarSchema = operationSchema.omit({ people: true })
type ScalarValues = ReturnType<typeof scalarSchema.parse>

const KIND_OPTIONS = (Object.keys(OPERATION_KIND) as OperationKind[]).map((k) => ({ value: k, label: OPERATION_KIND[k] }))
const BUSINESS_OPTIONS = (Object.keys(BUSINESS_ROLE) as BusinessRole[]).map((r) => ({ value: r, label: BUSINESS_ROLE[r] }))
const PERSON_OPTIONS = (Object.keys(PERSON_ROLE) as OperationPersonRole[]).map((r) => ({ value: r, label: PERSON_ROLE[r] }))

/** Today in Mexico City, 'AAAA-MM-DD' (the server refuses a future day). */
function todayMx(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(new Date())
}

const EMPTY: ScalarValues = { kind: 'compraventa', amount: '', cash: '', date: '', propertyReference: '', businessRole: 'intermediario' }

/** What the law requires of an operation, as badges (or why it cannot be said). */
function Requirement({ op }: { op: Operation }) {
  const r = op.requirement
  if (!r) return <span className="text-sm text-base-content/60">{op.requirementNote ?? 'Sin cálculo'}</span>
  return (
    <div className="flex flex-col gap-1">
      {r.identify && (
        <Badge variant="warning" className="badge-sm whitespace-nowrap">
          Identificación requerida
        </Badge>
      )}
      {r.aviso && (
        <Badge variant="destructive" className="badge-sm whitespace-nowrap">
          Aviso requerido
        </Badge>
      )}
      {!r.identify && !r.aviso && (
        <Badge variant="outline" className="badge-sm whitespace-nowrap">
          Bajo los umbrales
        </Badge>
      )}
      <span className="text-xs text-base-content/60">
        UMA {r.umaYear}: {pesosLabel(r.umaDaily)} · aviso desde {pesosLabel(r.avisoThresholdPesos)}
      </span>
    </div>
  )
}

/** "Operaciones": the platform's LFPIORPI operations of the mode and, for propietario and cumplimiento, the form to record one. */
export function OperationsTab({ me, mode }: { me: ConsoleMe; mode: Mode }) {
  const operations = useOperations(mode)
  useSignedOutOn(operations.error)
  const write = can(me, 'operations')
  const candidates = useOperationCandidates(mode, write)
  const create = useCreateOperation(mode)
  const { toast } = useToast()
  const signedOut = useConsoleSignedOut()
  const [chosen, setChosen] = useState<Record<string, OperationPersonRole>>({})
  const [peopleError, setPeopleError] = useState<string | undefined>()
  const [selected, setSelected] = useState<string | null>(null)
  const review = can(me, 'compliance')
  const pendingHits = usePendingHits(mode, review)
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<ScalarValues>({ resolver: zodResolver(scalarSchema), defaultValues: EMPTY })
  const pages = operations.data?.pages ?? []
  const rows = pages.flatMap((p) => p.data)
  const peopleHidden = pages[0]?.peopleHidden ?? !can(me, 'compliance')
  const where = mode === 'test' ? 'de prueba' : 'de producción'

  const onSubmit = (values: ScalarValues) => {
    const people = Object.entries(chosen).map(([sessionId, role]) => ({ sessionId, role }))
    if (people.length === 0) {
      setPeopleError('Indica al menos una persona de la operación')
      return
    }
    setPeopleError(undefined)
    const { cash, ...rest } = values
    create.mutate(
      { ...rest, ...(cash ? { cash } : {}), people },
      {
        onSuccess: () => {
          toast({ title: 'Operación registrada' })
          reset(EMPTY)
          setChosen({})
        },
        onError: (err) => {
          if (signedOut(err)) return
          const fields = (errorBody(err)?.errors ?? {}) as Record<string, string>
          for (const f of ['kind', 'amount', 'cash', 'date', 'propertyReference', 'businessRole'] as const) {
            if (fields[f]) setError(f, { message: fields[f] })
          }
          if (fields.people) setPeopleError(fields.people)
          toast({ title: 'No se pudo registrar', description: serverMessage(err, 'Intenta de nuevo.'), variant: 'destructive' })
        },
      },
    )
  }

  const toggle = (sessionId: string, on: boolean) =>
    setChosen((c) => {
      const next = { ...c }
      if (on) next[sessionId] = 'comprador'
      else delete next[sessionId]
      return next
    })

  if (selected) return <OperationDetail me={me} mode={mode} id={selected} onBack={() => setSelected(null)} />

  return (
    <div className="space-y-6">
      <TabHeading id="operations-title" title={`Operaciones ${where}`}>
        Lo que la LFPIORPI pide para cada operación, calculado con los valores de la UMA y los umbrales vigentes el día de la operación.
        {peopleHidden && ' Las personas de cada operación solo las ven los roles Propietario y Cumplimiento.'}
      </TabHeading>
      {review && (pendingHits.data?.count ?? 0) > 0 && (
        <div role="status" className="alert alert-warning alert-soft text-sm" data-testid="pending-hits">
          {pendingHits.data?.count === 1
            ? 'Hay 1 posible coincidencia en listas por revisar.'
            : `Hay ${pendingHits.data?.count} posibles coincidencias en listas por revisar.`}{' '}
          Abre la operación con «Revisar» para descartarla o confirmarla.
        </div>
      )}

      {write && (
        <section className="rounded-box border border-base-300 p-4" aria-labelledby="new-operation-title">
          <h3 id="new-operation-title" className="font-semibold">
            Registrar una operación
          </h3>
          <form className="mt-4 space-y-4" onSubmit={handleSubmit(onSubmit)} noValidate>
            <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
              <Field label="Tipo de operación" htmlFor="op-kind" error={errors.kind?.message}>
                <Select id="op-kind" className="w-full" options={KIND_OPTIONS} {...register('kind')} />
              </Field>
              <Field label="Monto en pesos (renta mensual en arrendamiento)" htmlFor="op-amount" error={errors.amount?.message}>
                <Input id="op-amount" inputMode="decimal" placeholder="3500000.00" invalid={!!errors.amount} {...register('amount')} />
              </Field>
              <Field label="Pagado en efectivo (pesos; vacío si nada)" htmlFor="op-cash" error={errors.cash?.message}>
                <Input id="op-cash" inputMode="decimal" placeholder="0.00" invalid={!!errors.cash} {...register('cash')} />
              </Field>
              <Field label="Fecha de la operación" htmlFor="op-date" error={errors.date?.message}>
                <Input id="op-date" type="date" max={todayMx()} invalid={!!errors.date} {...register('date')} />
              </Field>
              <Field label="Referencia del inmueble" htmlFor="op-reference" error={errors.propertyReference?.message}>
                <Input id="op-reference" maxLength={200} invalid={!!errors.propertyReference} {...register('propertyReference')} />
              </Field>
              <Field label="Papel de tu negocio" htmlFor="op-business-role" error={errors.businessRole?.message}>
                <Select id="op-business-role" className="w-full" options={BUSINESS_OPTIONS} {...register('businessRole')} />
              </Field>
            </div>
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium">Personas (sesiones completadas con tu plataforma)</legend>
              {candidates.data?.data.length === 0 && (
                <p className="text-sm text-base-content/70">Aún no hay sesiones completadas {where}.</p>
              )}
              {candidates.data?.data.map((c) => {
                const label = c.name ?? c.reference
                return (
                  <div key={c.sessionId} className="flex flex-wrap items-center gap-3" data-testid="candidate-row">
                    <label className="flex items-center gap-2">
                      <input
                        type="checkbox"
                        className="checkbox checkbox-sm"
                        checked={c.sessionId in chosen}
                        onChange={(e) => toggle(c.sessionId, e.target.checked)}
                        aria-label={`Incluir a ${label}`}
                      />
                      <span>
                        {label} <span className="text-xs text-base-content/60">({c.reference} · {formatDateMx(c.completedAt)})</span>
                      </span>
                    </label>
                    {c.identityVerified && (
                      <Badge variant="success" className="badge-sm">
                        Identidad verificada con documento
                      </Badge>
                    )}
                    {c.sessionId in chosen && (
                      <Select
                        aria-label={`Papel de ${label}`}
                        className="select-sm"
                        options={PERSON_OPTIONS}
                        value={chosen[c.sessionId]}
                        onChange={(e) => setChosen((s) => ({ ...s, [c.sessionId]: e.target.value as OperationPersonRole }))}
                      />
                    )}
                  </div>
                )
              })}
              {peopleError && (
                <p className="text-sm text-error" role="status">
                  {peopleError}
                </p>
              )}
            </fieldset>
            <Button type="submit" disabled={create.isPending}>
              Registrar operación
            </Button>
          </form>
        </section>
      )}

      <ConsoleTable
        columns={['Operación', 'Monto', 'Fecha', 'Lo que la ley pide', 'Personas']}
        query={operations}
        errorText="No pudimos cargar tus operaciones."
        isEmpty={rows.length === 0}
        empty={<>Aún no hay operaciones {where}.</>}
      >
        {rows.map((op) => (
          <tr key={op.id} data-testid="operation-row">
            <td>
              <div className="font-medium">{OPERATION_KIND[op.kind]}</div>
              <div className="text-sm break-words">{op.propertyReference}</div>
              <div className="text-xs text-base-content/60">Tu negocio: {BUSINESS_ROLE[op.businessRole]}</div>
              {op.stopped && (
                <Badge variant="destructive" className="badge-sm mt-1 whitespace-nowrap">
                  Operación detenida
                </Badge>
              )}
              {review && (
                <Button size="sm" variant="outline" className="mt-2" onClick={() => setSelected(op.id)} aria-label={`Revisar ${op.propertyReference}`}>
                  Revisar
                </Button>
              )}
            </td>
            <td className="whitespace-nowrap">
              {pesosLabel(op.amount)}
              {op.monthly && <span className="text-xs text-base-content/60"> al mes</span>}
            </td>
            <td className="whitespace-nowrap">{dayLabel(op.date)}</td>
            <td>
              <div className="flex flex-col gap-2">
                <Requirement op={op} />
                <RiskBadge risk={op.risk} />
              </div>
            </td>
            <td className="min-w-56">
              {peopleHidden ? (
                <span className="text-sm text-base-content/60">Solo Propietario y Cumplimiento</span>
              ) : (
                <ul className="space-y-1 text-sm">
                  {op.people.map((p) => (
                    <li key={p.sessionId || p.role}>
                      <span className="font-medium">{PERSON_ROLE[p.role]}</span>: {p.name ?? p.profileId ?? p.sessionId}
                      {p.identityVerified && (
                        <Badge variant="success" className="badge-sm ml-1">
                          Identidad verificada con documento
                        </Badge>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </td>
          </tr>
        ))}
      </ConsoleTable>
      <PagedTableFooter query={operations} />
    </div>
  )
}
