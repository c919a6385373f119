import { useId } from 'react'
import { TriangleAlert } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { CopyButton } from '@/components/ui/copy-button'
import { Modal } from '@/components/ui/modal'
import type { CreatedPartner } from '../api/partners'

/** The warning beside a new partner's keys (docs/partners.md says the same). */
export const KEYS_SHOWN_ONCE =
  'Las llaves secretas se muestran solo esta vez: cópialas ahora y entrégalas al socio por un canal seguro. No volverás a verlas; si se pierden, el socio crea otras en su consola (/socios).'

/** The four first keys, in the order a partner uses them. */
const KEY_ROWS: { field: keyof CreatedPartner['keys']; label: string; note: string }[] = [
  { field: 'publishableTest', label: 'Llave publicable de prueba', note: 'Para sus páginas, en modo de prueba.' },
  { field: 'secretTest', label: 'Llave secreta de prueba', note: 'Solo para sus servidores. No volverá a mostrarse.' },
  { field: 'publishableLive', label: 'Llave publicable de producción', note: 'Para sus páginas, en producción.' },
  { field: 'secretLive', label: 'Llave secreta de producción', note: 'Solo para sus servidores. No volverá a mostrarse.' },
]

/**
 * The keys of a partner just created, shown the one time the server answers them: both
 * publishable keys and a first secret key of each mode, each with a copy button.
 */
export function NewPartnerKeysDialog({ partner, onClose }: { partner: CreatedPartner | null; onClose: () => void }) {
  const id = useId()
  return (
    <Modal open={partner !== null} onClose={onClose} labelledBy={`${id}-title`} className="modal-bottom sm:modal-middle">
      {partner && (
        <div className="modal-box max-w-2xl space-y-4" data-testid="new-partner-keys">
          <h3 id={`${id}-title`} className="text-lg font-bold">
            Llaves de {partner.partnerName}
          </h3>
          <div role="alert" className="alert alert-warning alert-soft items-start">
            <TriangleAlert className="size-5 shrink-0" aria-hidden />
            <p className="text-sm font-medium">{KEYS_SHOWN_ONCE}</p>
          </div>
          <dl className="space-y-3">
            {KEY_ROWS.map((row) => (
              <div key={row.field} className="space-y-1">
                <dt className="text-sm font-medium">{row.label}</dt>
                <dd className="flex flex-col gap-2 rounded-box border border-base-300 bg-base-200 p-3 sm:flex-row sm:items-center">
                  <code className="min-w-0 flex-1 break-all font-mono text-sm" data-testid={`key-${row.field}`}>
                    {partner.keys[row.field]}
                  </code>
                  <CopyButton text={partner.keys[row.field]} label={row.label.toLowerCase()} />
                </dd>
                <dd className="text-xs text-base-content/70">{row.note}</dd>
              </div>
            ))}
          </dl>
          <div className="modal-action">
            <Button onClick={onClose}>Ya las guardé</Button>
          </div>
        </div>
      )}
    </Modal>
  )
}
