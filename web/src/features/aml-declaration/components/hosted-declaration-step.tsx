import { useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { formatDateTimeMx } from '@/lib/format'
import { amlDeclarationKey, getAmlDeclaration, type AmlSigned } from '../api/aml-declaration'
import { DeclarationFlow } from './declaration-flow'
import { DeclarationSummary, methodLabel } from './declaration-section'

/** What the hosted flow passes to its declaration step. */
export type HostedDeclarationStepProps = {
  userId: string
  partnerName: string
  /** The version the person signed or confirmed as still true (undefined: not yet). */
  confirmed?: number
  onConfirmed: (version: number | undefined) => void
}

/**
 * The hosted flow's step before «Compartir» when the platform asks for the declaration: a person
 * without one answers and signs it; one with a signed version sees it and confirms it is still
 * true, or corrects it (a new version).
 */
export function HostedDeclarationStep({ userId, partnerName, confirmed, onConfirmed }: HostedDeclarationStepProps) {
  const queryClient = useQueryClient()
  const query = useQuery({ queryKey: amlDeclarationKey(userId), queryFn: () => getAmlDeclaration(userId) })
  const [editing, setEditing] = useState(false)
  const state = query.data
  const signed = (res: AmlSigned) => {
    setEditing(false)
    void queryClient.invalidateQueries({ queryKey: amlDeclarationKey(userId) })
    onConfirmed(res.declaration.version)
  }
  return (
    <section aria-labelledby="aml-step" className="space-y-3 rounded-box border border-base-300 p-3 sm:p-4" data-testid="aml-step">
      <h3 id="aml-step" className="font-semibold">Tu declaración para {partnerName}</h3>
      {query.isError && <Alert variant="destructive">No pudimos cargar tu declaración. Recarga la página.</Alert>}
      {!state ? (
        !query.isError && <p role="status">Cargando…</p>
      ) : editing || !state.current ? (
        <DeclarationFlow
          userId={userId}
          state={state}
          onSigned={signed}
          onCancel={state.current ? () => setEditing(false) : undefined}
        />
      ) : (
        <>
          <p className="text-sm">
            Ya firmaste tu declaración (versión {state.current.version}, {formatDateTimeMx(state.current.signedAt)}, con{' '}
            {methodLabel(state.current.method)}). Revisa que siga siendo cierta:
          </p>
          <DeclarationSummary declaration={state.current} />
          {confirmed === state.current.version ? (
            <Alert variant="success">Confirmaste que tu declaración sigue siendo cierta.</Alert>
          ) : (
            <div className="flex flex-wrap gap-2">
              <Button size="sm" onClick={() => onConfirmed(state.current?.version)}>Sigue siendo cierta</Button>
              <Button size="sm" variant="outline" onClick={() => { onConfirmed(undefined); setEditing(true) }}>Corregir</Button>
            </div>
          )}
        </>
      )}
    </section>
  )
}
