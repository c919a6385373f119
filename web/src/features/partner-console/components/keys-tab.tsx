import { useState } from 'react'
import { KeySquare, Plus } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { useToast } from '@/components/ui/toast'
import { serverMessage } from '@/lib/api-client'
import { formatDateTimeMx } from '@/lib/format'
import { useConsoleSignedOut, useSignedOutOn } from '../api/get-console-me'
import { useKeyMutations, useKeys } from '../api/keys'
import { can } from '../labels'
import type { ConsoleMe, Mode, PartnerKey } from '../types'
import { OriginCard } from './origin-card'
import { SecretDialog, type ShownSecret } from './secret-dialog'
import { ConsoleTable, TimeZoneNote } from './table-message'
import { TabHeading } from './tab-heading'

const MODE_WORD: Record<Mode, string> = { test: 'de prueba', live: 'de producción' }

/** "Llaves": the allowed origin, and the keys of the mode (secret ones only as a hint); create and revoke. */
export function KeysTab({ me, mode }: { me: ConsoleMe; mode: Mode }) {
  const keys = useKeys(mode)
  const { create, revoke } = useKeyMutations()
  const { toast } = useToast()
  const signedOut = useConsoleSignedOut()
  const [shown, setShown] = useState<ShownSecret | null>(null)
  const [revoking, setRevoking] = useState<PartnerKey | null>(null)
  const manage = can(me, 'keys')

  useSignedOutOn(keys.error)
  const fail = (err: unknown) => {
    if (signedOut(err)) return
    toast({ title: 'No se pudo', description: serverMessage(err, 'Intenta de nuevo.'), variant: 'destructive' })
  }

  const make = (kind: PartnerKey['kind']) =>
    create.mutate(
      { kind, mode },
      {
        onSuccess: (k) =>
          setShown({
            title: kind === 'secret' ? `Tu nueva llave secreta ${MODE_WORD[mode]}` : `Tu nueva llave publicable ${MODE_WORD[mode]}`,
            label: 'la llave',
            value: k.key,
            note:
              kind === 'secret'
                ? 'Úsala solo desde tu servidor, en el encabezado Authorization: Bearer. Nunca la pongas en tus páginas.'
                : 'Va en tus páginas, con el widget. Es pública: nunca revela datos de una persona.',
          }),
        onError: fail,
      },
    )

  const confirmRevoke = () => {
    if (!revoking) return
    revoke.mutate(revoking.id, {
      onSuccess: (k) => toast({ title: 'Llave revocada', description: `${k.hint} deja de funcionar en unos segundos.` }),
      onError: fail,
      onSettled: () => setRevoking(null),
    })
  }

  return (
    <div className="space-y-6">
      <OriginCard me={me} />
      <section className="space-y-4" aria-labelledby="keys-title">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <TabHeading id="keys-title" title={`Llaves ${MODE_WORD[mode]}`}>
            Puedes tener varias activas para rotarlas sin cortes: crea la nueva, cámbiala en tu servidor y revoca la anterior.
          </TabHeading>
          {manage && (
            <div className="flex flex-wrap gap-2">
              <Button size="sm" onClick={() => make('secret')} disabled={create.isPending}>
                <Plus className="size-4" aria-hidden />
                Crear llave secreta
              </Button>
              <Button size="sm" variant="outline" onClick={() => make('publishable')} disabled={create.isPending}>
                <Plus className="size-4" aria-hidden />
                Crear llave publicable
              </Button>
            </div>
          )}
        </div>
        <ConsoleTable
          columns={['Llave', 'Tipo', 'Creada', 'Último uso', 'Estado', manage && { label: 'Acciones', className: 'text-right' }]}
          query={keys}
          errorText="No pudimos cargar tus llaves."
          isEmpty={!keys.data?.length}
          empty={<>Aún no tienes llaves {MODE_WORD[mode]}.</>}
        >
          {(keys.data ?? []).map((k) => (
            <tr key={k.id} data-testid="key-row" className={k.revokedAt ? 'opacity-60' : undefined}>
              <td>
                <div className="flex items-center gap-2">
                  <KeySquare className="size-4 shrink-0 text-base-content/50" aria-hidden />
                  <code className="font-mono text-xs whitespace-nowrap">{k.hint}</code>
                </div>
              </td>
              <td className="whitespace-nowrap">{k.kind === 'secret' ? 'Secreta' : 'Publicable'}</td>
              <td className="whitespace-nowrap">
                {formatDateTimeMx(k.createdAt)}
                {k.createdBy && <div className="text-xs text-base-content/60">{k.createdBy}</div>}
              </td>
              <td className="whitespace-nowrap">{k.lastUsedAt ? formatDateTimeMx(k.lastUsedAt) : 'Nunca'}</td>
              <td>
                {k.revokedAt ? (
                  <Badge variant="outline" className="badge-sm whitespace-nowrap">
                    Revocada {formatDateTimeMx(k.revokedAt)}
                  </Badge>
                ) : (
                  <Badge variant="success" className="badge-sm">
                    Activa
                  </Badge>
                )}
              </td>
              {manage && (
                <td className="text-right">
                  {!k.revokedAt && (
                    <Button variant="ghost" size="sm" className="text-error" onClick={() => setRevoking(k)} aria-label={`Revocar ${k.hint}`}>
                      Revocar
                    </Button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </ConsoleTable>
        <TimeZoneNote />
      </section>
      <SecretDialog secret={shown} onClose={() => setShown(null)} />
      <ConfirmDialog
        open={revoking !== null}
        title="¿Revocar esta llave?"
        confirmLabel="Revocar llave"
        pending={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={confirmRevoke}
      >
        <p>
          <code className="font-mono text-sm break-all">{revoking?.hint}</code> dejará de funcionar en unos segundos y no se puede
          reactivar. Antes, asegúrate de que tu {revoking?.kind === 'secret' ? 'servidor' : 'sitio'} ya usa otra llave activa.
        </p>
      </ConfirmDialog>
    </div>
  )
}
