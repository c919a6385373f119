import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Button } from '@/components/ui/button'
import { Field, Input, Select } from '@/components/ui/input'
import { Table } from '@/components/ui/table'
import { useToast } from '@/components/ui/toast'
import { errorBody, serverMessage } from '@/lib/api-client'
import {
  useAmlThresholds,
  usePutAmlThreshold,
  usePutUma,
  useUmaValues,
  type AmlActivity,
  type AmlThreshold,
  type UmaValue,
} from '../api/aml-tables'
import { AmlRiskWeightsSection } from './aml-risk-weights-section'
import { amlThresholdSchema, umaSchema, type AmlThresholdFormValues, type UmaFormValues } from '../aml-schemas'

const ACTIVITY_LABEL: Record<AmlActivity, string> = {
  compraventa: 'Compraventa',
  intermediacion: 'Intermediación',
  desarrollo: 'Desarrollo o preventa',
  arrendamiento: 'Arrendamiento',
}
const ACTIVITY_OPTIONS = (Object.keys(ACTIVITY_LABEL) as AmlActivity[]).map((a) => ({ value: a, label: ACTIVITY_LABEL[a] }))

/** "181589.70" → "$181,589.70": the server's pesos, grouped, never through a float. */
export function formatPesos(pesos: string): string {
  const [whole, cents = '00'] = pesos.split('.')
  return `$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`
}

/** "2026-02-01" → "01/02/2026" (a calendar day: no time zone). */
function formatDay(day: string): string {
  const [y, m, d] = day.split('-')
  return `${d}/${m}/${y}`
}

function umaCount(n: number): string {
  return n.toLocaleString('es-MX')
}

/** One threshold in words: "Siempre", "Desde 8,025 UMA", "Más de 1,605 UMA al mes", with its pesos today. */
function thresholdText(uma: number, strict: boolean, monthly: boolean, pesos: string | undefined, umaYear: number | undefined): string {
  if (uma === 0) return 'Siempre'
  const words = `${strict ? 'Más de' : 'Desde'} ${umaCount(uma)} UMA${monthly ? ' al mes' : ''}`
  return pesos && umaYear ? `${words} (${formatPesos(pesos)} con la UMA ${umaYear})` : words
}

/** Puts a 400's field messages under their fields; false when it named none. */
function placeFieldErrors<T extends string>(err: unknown, fields: readonly T[], set: (field: T, message: string) => void): boolean {
  const errors = errorBody(err)?.errors
  let placed = false
  if (errors && typeof errors === 'object') {
    for (const field of fields) {
      const message = (errors as Record<string, unknown>)[field]
      if (typeof message === 'string') {
        set(field, message)
        placed = true
      }
    }
  }
  return placed
}

/**
 * "Umbrales LFPIORPI": the UMA by year and the thresholds by activity, each with its source.
 * Every role reads them; administradores (canEdit) add or correct a row.
 */
export function AmlThresholdsSection({ canEdit, onUnauthorized }: { canEdit: boolean; onUnauthorized: (err: unknown) => boolean }) {
  const umas = useUmaValues()
  const thresholds = useAmlThresholds()
  return (
    <section className="space-y-8" aria-label="Umbrales LFPIORPI">
      <p className="text-sm text-base-content/70">
        Con estos valores se calcula si una operación exige identificar al cliente y presentar aviso (LFPIORPI, artículo 17). La UMA cambia cada
        año: el INEGI publica el nuevo valor en enero y rige desde el 1 de febrero; regístralo aquí con su fuente.
      </p>
      <div className="space-y-3">
        <h3 className="text-lg font-semibold">Umbrales por actividad</h3>
        <Table className="table-sm" columns={['Actividad', 'Desde', 'Identificación', 'Aviso', 'Fuente']} caption="Umbrales en UMA y su equivalente en pesos hoy">
          {(thresholds.data ?? []).map((t) => (
            <tr key={`${t.activity}-${t.validFrom}`} data-testid="aml-threshold-row">
              <td>{t.activityText || ACTIVITY_LABEL[t.activity]}</td>
              <td>{formatDay(t.validFrom)}</td>
              <td>{thresholdText(t.identificationUma, t.identificationStrict, t.monthly, t.identificationPesos, t.umaYear)}</td>
              <td>{thresholdText(t.avisoUma, t.avisoStrict, t.monthly, t.avisoPesos, t.umaYear)}</td>
              <td className="max-w-md text-xs">{t.source}</td>
            </tr>
          ))}
        </Table>
        {canEdit && <ThresholdForm rows={thresholds.data ?? []} onUnauthorized={onUnauthorized} />}
      </div>
      <div className="space-y-3">
        <h3 className="text-lg font-semibold">UMA por año</h3>
        <Table className="table-sm" columns={['Año', 'Valor diario', 'Vigente desde', 'Fuente']}>
          {(umas.data ?? []).map((u) => (
            <tr key={u.year} data-testid="uma-row">
              <td>{u.year}</td>
              <td>{formatPesos(u.dailyValue)}</td>
              <td>{formatDay(u.validFrom)}</td>
              <td className="max-w-md text-xs">{u.source}</td>
            </tr>
          ))}
        </Table>
        {canEdit && <UmaForm latest={umas.data?.[0]} onUnauthorized={onUnauthorized} />}
      </div>
      <AmlRiskWeightsSection canEdit={canEdit} onUnauthorized={onUnauthorized} />
    </section>
  )
}

const UMA_FIELDS = ['year', 'dailyValue', 'source'] as const

/** "Registrar UMA": a new year's value (or a correction), with its source. */
function UmaForm({ latest, onUnauthorized }: { latest?: UmaValue; onUnauthorized: (err: unknown) => boolean }) {
  const put = usePutUma()
  const { toast } = useToast()
  const empty: UmaFormValues = { year: latest ? String(latest.year + 1) : '', dailyValue: '', source: '' }
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<UmaFormValues>({ resolver: zodResolver(umaSchema), values: empty })

  const onSubmit = (v: UmaFormValues) =>
    put.mutate(
      { year: Number(v.year), dailyValue: v.dailyValue, source: v.source },
      {
        onSuccess: (u) => {
          toast({ title: 'UMA registrada', description: `UMA ${u.year}: ${formatPesos(u.dailyValue)} diarios desde el ${formatDay(u.validFrom)}.` })
          reset(empty)
        },
        onError: (err) => {
          if (onUnauthorized(err)) return
          if (!placeFieldErrors(err, UMA_FIELDS, (f, message) => setError(f, { message })))
            toast({ title: 'No se pudo guardar', description: serverMessage(err, 'Intenta de nuevo.'), variant: 'destructive' })
        },
      },
    )

  return (
    <form className="grid gap-3 sm:grid-cols-4" onSubmit={handleSubmit(onSubmit)} noValidate aria-label="Registrar UMA">
      <Field label="Año" htmlFor="uma-year" error={errors.year?.message}>
        <Input id="uma-year" inputMode="numeric" invalid={!!errors.year} {...register('year')} />
      </Field>
      <Field label="Valor diario (pesos)" htmlFor="uma-daily" error={errors.dailyValue?.message}>
        <Input id="uma-daily" inputMode="decimal" placeholder="117.31" invalid={!!errors.dailyValue} {...register('dailyValue')} />
      </Field>
      <div className="sm:col-span-2">
        <Field label="Fuente" htmlFor="uma-source" error={errors.source?.message} hint="Comunicado del INEGI o publicación en el DOF, con su fecha.">
          <Input id="uma-source" invalid={!!errors.source} {...register('source')} />
        </Field>
      </div>
      <div>
        <Button type="submit" disabled={put.isPending} pending={put.isPending}>
          Guardar UMA
        </Button>
      </div>
    </form>
  )
}

const THRESHOLD_FIELDS = ['activity', 'validFrom', 'identificationUma', 'avisoUma', 'source'] as const

function formValues(t: AmlThreshold): AmlThresholdFormValues {
  return {
    activity: t.activity,
    validFrom: t.validFrom,
    identificationUma: String(t.identificationUma),
    identificationStrict: t.identificationStrict,
    avisoUma: String(t.avisoUma),
    avisoStrict: t.avisoStrict,
    monthly: t.monthly,
    source: t.source,
  }
}

const EMPTY_THRESHOLD: AmlThresholdFormValues = {
  activity: 'compraventa',
  validFrom: '',
  identificationUma: '0',
  identificationStrict: false,
  avisoUma: '',
  avisoStrict: false,
  monthly: false,
  source: '',
}

/** "Corregir umbral": an activity's thresholds from a date; choosing an activity starts from its newest row. */
function ThresholdForm({ rows, onUnauthorized }: { rows: AmlThreshold[]; onUnauthorized: (err: unknown) => boolean }) {
  const put = usePutAmlThreshold()
  const { toast } = useToast()
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<AmlThresholdFormValues>({ resolver: zodResolver(amlThresholdSchema), values: rows[0] ? formValues(rows[0]) : EMPTY_THRESHOLD })

  const activity = register('activity')
  const onActivity = (a: string) => {
    const newest = rows.find((r) => r.activity === a)
    reset(newest ? formValues(newest) : { ...EMPTY_THRESHOLD, activity: a as AmlActivity })
  }

  const onSubmit = (v: AmlThresholdFormValues) =>
    put.mutate(
      { ...v, identificationUma: Number(v.identificationUma), avisoUma: Number(v.avisoUma) },
      {
        onSuccess: (t) => toast({ title: 'Umbral guardado', description: `${t.activityText} desde el ${formatDay(t.validFrom)}.` }),
        onError: (err) => {
          if (onUnauthorized(err)) return
          if (!placeFieldErrors(err, THRESHOLD_FIELDS, (f, message) => setError(f, { message })))
            toast({ title: 'No se pudo guardar', description: serverMessage(err, 'Intenta de nuevo.'), variant: 'destructive' })
        },
      },
    )

  return (
    <form className="grid gap-3 sm:grid-cols-4" onSubmit={handleSubmit(onSubmit)} noValidate aria-label="Corregir umbral">
      <Field label="Actividad" htmlFor="aml-activity" error={errors.activity?.message}>
        <Select
          id="aml-activity"
          className="w-full"
          options={ACTIVITY_OPTIONS}
          {...activity}
          onChange={(e) => {
            void activity.onChange(e)
            onActivity(e.target.value)
          }}
        />
      </Field>
      <Field label="Aplica desde" htmlFor="aml-valid-from" error={errors.validFrom?.message}>
        <Input id="aml-valid-from" type="date" invalid={!!errors.validFrom} {...register('validFrom')} />
      </Field>
      <Field label="Identificación (UMA, 0 = siempre)" htmlFor="aml-identification" error={errors.identificationUma?.message}>
        <Input id="aml-identification" inputMode="numeric" invalid={!!errors.identificationUma} {...register('identificationUma')} />
      </Field>
      <Field label="Aviso (UMA)" htmlFor="aml-aviso" error={errors.avisoUma?.message}>
        <Input id="aml-aviso" inputMode="numeric" invalid={!!errors.avisoUma} {...register('avisoUma')} />
      </Field>
      <div className="flex flex-wrap gap-4 text-sm sm:col-span-4">
        <label className="flex items-center gap-2">
          <input type="checkbox" className="checkbox checkbox-sm" {...register('identificationStrict')} />
          Identificación solo por encima del umbral («superior a»)
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" className="checkbox checkbox-sm" {...register('avisoStrict')} />
          Aviso solo por encima del umbral
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" className="checkbox checkbox-sm" {...register('monthly')} />
          Monto mensual (renta)
        </label>
      </div>
      <div className="sm:col-span-3">
        <Field label="Fuente legal" htmlFor="aml-source" error={errors.source?.message} hint="Ley, artículo, fracción y fecha de publicación en el DOF.">
          <Input id="aml-source" invalid={!!errors.source} {...register('source')} />
        </Field>
      </div>
      <div className="flex items-end">
        <Button type="submit" disabled={put.isPending} pending={put.isPending}>
          Guardar umbral
        </Button>
      </div>
    </form>
  )
}
