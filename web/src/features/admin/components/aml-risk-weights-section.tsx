import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { Field, Input, Select } from '@/components/ui/input'
import { Table } from '@/components/ui/table'
import { useToast } from '@/components/ui/toast'
import { errorBody, serverMessage } from '@/lib/api-client'
import { useAmlRiskWeights, usePutAmlRiskWeight, type AmlRiskWeight } from '../api/aml-risk-weights'

/**
 * "Ponderaciones de riesgo": the points of each risk factor of an operation and the cut-offs of
 * the levels, each with its source (docs/aml-avisos.md). Every role reads; administradores change.
 */
export function AmlRiskWeightsSection({ canEdit, onUnauthorized }: { canEdit: boolean; onUnauthorized: (err: unknown) => boolean }) {
  const weights = useAmlRiskWeights()
  const rows = weights.data ?? []
  return (
    <div className="space-y-3">
      <h3 className="text-lg font-semibold">Ponderaciones de riesgo</h3>
      <p className="text-sm text-base-content/70">
        Cada factor presente en una operación suma sus puntos; desde el corte medio el riesgo es medio y desde el corte alto, alto. La ley
        pide evaluar el riesgo pero no fija estos números: anota siempre la fuente o la razón de cada valor.
      </p>
      <Table className="table-sm" columns={['Factor', 'Puntos', 'Fuente o razón']}>
        {rows.map((w) => (
          <tr key={w.key} data-testid="aml-risk-weight-row">
            <td>{w.kind === 'corte' ? <strong>{w.keyText}</strong> : w.keyText}</td>
            <td>{w.weight}</td>
            <td className="max-w-md text-xs">{w.source}</td>
          </tr>
        ))}
      </Table>
      {canEdit && rows.length > 0 && <RiskWeightForm rows={rows} onUnauthorized={onUnauthorized} />}
    </div>
  )
}

function RiskWeightForm({ rows, onUnauthorized }: { rows: AmlRiskWeight[]; onUnauthorized: (err: unknown) => boolean }) {
  const put = usePutAmlRiskWeight()
  const { toast } = useToast()
  const [key, setKey] = useState(rows[0]?.key ?? '')
  const [weight, setWeight] = useState('')
  const [source, setSource] = useState('')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const submit = (e: React.FormEvent) => {
    e.preventDefault()
    const next: Record<string, string> = {}
    if (!/^\d{1,4}$/.test(weight.trim())) next.weight = 'El peso debe estar entre 0 y 1000'
    if (!source.trim()) next.source = 'Indica la fuente o la razón del valor'
    setErrors(next)
    if (Object.keys(next).length > 0) return
    put.mutate(
      { key, weight: Number(weight.trim()), source: source.trim() },
      {
        onSuccess: () => {
          toast({ title: 'Ponderación guardada' })
          setWeight('')
          setSource('')
        },
        onError: (err) => {
          if (onUnauthorized(err)) return
          const fields = (errorBody(err)?.errors ?? {}) as Record<string, string>
          setErrors(fields)
          toast({ title: 'No se pudo guardar', description: serverMessage(err, 'Intenta de nuevo.'), variant: 'destructive' })
        },
      },
    )
  }
  return (
    <form className="grid gap-3 sm:grid-cols-4" onSubmit={submit} noValidate aria-label="Cambiar una ponderación de riesgo">
      <Field label="Factor o corte" htmlFor="risk-key" error={errors.key}>
        <Select
          id="risk-key"
          className="w-full"
          options={rows.map((w) => ({ value: w.key, label: w.keyText }))}
          value={key}
          onChange={(e) => setKey(e.target.value)}
        />
      </Field>
      <Field label="Puntos" htmlFor="risk-weight" error={errors.weight}>
        <Input id="risk-weight" inputMode="numeric" invalid={!!errors.weight} value={weight} onChange={(e) => setWeight(e.target.value)} />
      </Field>
      <div className="sm:col-span-2">
        <Field label="Fuente o razón" htmlFor="risk-source" error={errors.source}>
          <Input id="risk-source" invalid={!!errors.source} value={source} onChange={(e) => setSource(e.target.value)} />
        </Field>
      </div>
      <div>
        <Button type="submit" disabled={put.isPending} pending={put.isPending}>
          Guardar ponderación
        </Button>
      </div>
    </form>
  )
}
