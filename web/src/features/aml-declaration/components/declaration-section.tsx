import { useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { FileSignature } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardDescription, CardTitle } from '@/components/ui/card'
import { formatDateTimeMx } from '@/lib/format'
import { amlDeclarationKey, getAmlDeclaration, nationalityLabel, type AmlDeclaration, type AmlSigned } from '../api/aml-declaration'
import { DeclarationFlow } from './declaration-flow'

// Mi Perfil › Declaración de conocimiento del cliente: the current version, the earlier ones and
// who received each; «Corregir» signs a new version, shared with every business that had one.

/** How a version was signed, in Spanish. */
export const methodLabel = (m: AmlDeclaration['method']) => (m === 'passkey' ? 'llave de acceso' : 'código de verificación')

/** The answers of a version, as the person reads them. */
export function DeclarationSummary({ declaration }: { declaration: AmlDeclaration }) {
  const a = declaration.answers
  return (
    <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
      <dt className="font-medium">Ocupación</dt>
      <dd>{a.occupation}</dd>
      <dt className="font-medium">Domicilio</dt>
      <dd>{a.address}</dd>
      <dt className="font-medium">RFC</dt>
      <dd>{a.rfc}</dd>
      <dt className="font-medium">Nacionalidad</dt>
      <dd>{nationalityLabel(a.nationality)}</dd>
      <dt className="font-medium">Actúas</dt>
      <dd>{a.forBeneficiary && a.beneficiary ? `Por cuenta de ${a.beneficiary.name} (${a.beneficiary.relationship})` : 'Por tu cuenta'}</dd>
      <dt className="font-medium">Cargo público</dt>
      <dd>{a.pep ? a.pepPosition : 'No'}</dd>
    </dl>
  )
}

export function AmlDeclarationSection({ userId }: { userId: string }) {
  const queryClient = useQueryClient()
  const query = useQuery({ queryKey: amlDeclarationKey(userId), queryFn: () => getAmlDeclaration(userId) })
  const [editing, setEditing] = useState(false)
  const [done, setDone] = useState<AmlSigned>()
  const state = query.data
  if (!state) return null

  const signed = (res: AmlSigned) => {
    setEditing(false)
    setDone(res)
    void queryClient.invalidateQueries({ queryKey: amlDeclarationKey(userId) })
  }
  const current = state.current
  return (
    <Card>
      <CardBody className="gap-3" data-testid="aml-declaration-section">
        <div className="flex items-center gap-2">
          <FileSignature className="size-5 text-primary" aria-hidden />
          <CardTitle>Declaración de conocimiento del cliente</CardTitle>
        </div>
        <CardDescription>
          Lo que declaraste para los negocios inmobiliarios (ley contra el lavado de dinero). Cada corrección es una nueva versión firmada;
          las anteriores se conservan.
        </CardDescription>
        {done && (
          <Alert variant="success" title={`Firmaste la versión ${done.declaration.version}`}>
            {done.notified > 0
              ? `La compartimos con ${done.notified === 1 ? 'el negocio que tenía' : `los ${done.notified} negocios que tenían`} una versión anterior y le avisamos.`
              : 'Quedó guardada.'}
          </Alert>
        )}
        {editing ? (
          <DeclarationFlow userId={userId} state={state} onSigned={signed} onCancel={() => setEditing(false)} />
        ) : current ? (
          <>
            <p className="text-sm" data-testid="aml-current">
              Versión {current.version}, firmada el {formatDateTimeMx(current.signedAt)} con {methodLabel(current.method)}.
            </p>
            <DeclarationSummary declaration={current} />
            <div>
              <Button variant="outline" size="sm" onClick={() => { setDone(undefined); setEditing(true) }}>Corregir</Button>
            </div>
            {state.history.length > 1 && (
              <section aria-label="Versiones anteriores">
                <h4 className="text-sm font-semibold">Versiones</h4>
                <ul className="mt-1 space-y-1 text-sm">
                  {state.history.map((d) => (
                    <li key={d.version} data-testid="aml-version">
                      Versión {d.version}: {formatDateTimeMx(d.signedAt)}, {methodLabel(d.method)}
                      {d.version === current.version ? ' (vigente)' : ''}
                    </li>
                  ))}
                </ul>
              </section>
            )}
            {state.shares.length > 0 && (
              <section aria-label="Negocios que la recibieron">
                <h4 className="text-sm font-semibold">La recibieron</h4>
                <ul className="mt-1 space-y-1 text-sm">
                  {state.shares.map((s) => (
                    <li key={`${s.version}-${s.partnerName}`}>
                      {s.partnerName}: versión {s.version}, {formatDateTimeMx(s.sharedAt)}
                    </li>
                  ))}
                </ul>
              </section>
            )}
          </>
        ) : (
          <p className="text-sm text-base-content/70">
            Aún no la has firmado. Un negocio inmobiliario te la pedirá al verificar tu identidad, si la necesita.
          </p>
        )}
      </CardBody>
    </Card>
  )
}
