import { useState } from 'react'
import { Building2 } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { useToast } from '@/components/ui/toast'
import { serverMessage } from '@/lib/api-client'
import { formatDateTimeMx } from '@/lib/format'
import { claimLabels, usePartnerAccess, useRevokePartnerAccess, type PartnerGrant } from '../api/partner-access'
import { MyDataSection } from './my-data-section'

/** "Plataformas con acceso": which platforms the person shared with, what and when; withdraw any. */
export function PartnerAccessSection({ userId }: { userId: string }) {
  const access = usePartnerAccess(userId)
  const revoke = useRevokePartnerAccess(userId)
  const { toast } = useToast()
  const [confirming, setConfirming] = useState<PartnerGrant | null>(null)
  const grants = access.data?.grants ?? []

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
