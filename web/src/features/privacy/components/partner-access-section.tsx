import { useState } from 'react'
import { Building2 } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { useToast } from '@/components/ui/toast'
import { serverMessage } from '@/lib/api-client'
import { formatDateTimeMx } from '@/lib/format'
import { claimLabels, usePartnerAccess, useRevokePartnerAccess, type PartnerGrant } from '../api/partner-access'
import { MyDataSection } from './my-data-section'

/** A calendar day 'YYYY-MM-DD' as dd/mm/aaaa, never moved by a time zone. */
function calendarDay(day: string) {
  const [y, m, d] = day.split('-')
  return `${d}/${m}/${y}`
}

/** "Plataformas con acceso": which platforms the person shared with, what and when; withdraw any. */
export function PartnerAccessSection({ userId }: { userId: string }) {
  const access = usePartnerAccess(userId)
  const revoke = useRevokePartnerAccess(userId)
  const { toast } = useToast()
  const [confirming, setConfirming] = useState<PartnerGrant | null>(null)
  const grants = access.data?.grants ?? []
  const amlFiles = access.data?.amlFiles ?? []

  const withdraw = async () => {
    if (!confirming) return
    try {
      await revoke.mutateAsync(confirming.id)
      toast({ title: 'Acceso retirado', description: `${confirming.partnerName} ya no recibirá tus datos.` })
    } catch (err) {
      toast({ title: 'Error', description: serverMessage(err, 'No pudimos retirar el acceso.'), variant: 'destructive' })
    } finally {
      setConfirming(null)
    }
  }

  return (
    <MyDataSection title="Plataformas con acceso" icon={Building2} testId="partner-access">
      <p className="text-base-content/80">Las plataformas con las que compartiste tus datos, qué compartiste y cuándo (hora de la Ciudad de México).</p>
      {access.isPending ? (
        <span className="loading loading-spinner loading-sm" aria-label="Cargando" />
      ) : access.isError ? (
        <p className="text-error">No pudimos cargar las plataformas con acceso.</p>
      ) : grants.length === 0 ? (
        <p className="text-base-content/70">No has compartido tus datos con ninguna plataforma.</p>
      ) : (
        <ul className="divide-y divide-base-300 rounded-box border border-base-300">
          {grants.map((g) => (
            <li key={g.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3" data-testid="partner-grant">
              <div className="min-w-0">
                <p className="font-medium">
                  {g.partnerName} <span className="font-normal text-base-content/70">({g.domain})</span>
                </p>
                <p className="text-base-content/80">{g.claims.map((c) => claimLabels[c]).join(', ')}</p>
                <p className="text-base-content/70">
                  Compartido el {formatDateTimeMx(g.grantedAt)}
                  {g.revokedAt && ` · Acceso retirado el ${formatDateTimeMx(g.revokedAt)}`}
                </p>
              </div>
              {!g.revokedAt && (
                <Button variant="outline" size="sm" onClick={() => setConfirming(g)}>
                  Retirar acceso
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {amlFiles.length > 0 && (
        <div className="space-y-2" data-testid="aml-files">
          <h3 className="font-medium">Expedientes que una plataforma debe conservar por ley</h3>
          <p className="text-base-content/80">
            Estas plataformas inmobiliarias integraron un expediente de identificación sobre ti por una operación. La Ley Federal para la
            Prevención e Identificación de Operaciones con Recursos de Procedencia Ilícita (art. 18) las obliga a conservarlo 10 años desde la
            operación, aun si retiras el acceso o eliminas tu cuenta; mientras tanto queda bloqueado y solo lo consulta su área de cumplimiento o
            una autoridad que lo requiera.
          </p>
          <ul className="divide-y divide-base-300 rounded-box border border-base-300">
            {amlFiles.map((f) => (
              <li key={`${f.partnerName}-${f.until}`} className="px-4 py-3" data-testid="aml-file">
                <span className="font-medium">{f.partnerName}</span> · lo conserva hasta el {calendarDay(f.until)}
              </li>
            ))}
          </ul>
        </div>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={`¿Retirar el acceso de ${confirming?.partnerName ?? ''}?`}
        confirmLabel="Retirar acceso"
        pending={revoke.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() => void withdraw()}
      >
        Dejará de recibir tus datos desde ahora; le avisaremos. Lo que ya recibió lo conserva según su propio aviso de privacidad.
      </ConfirmDialog>
    </MyDataSection>
  )
}
