import type { ReactNode } from 'react'
import { MailCheck, ScanFace } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'

/**
 * Shown on /profile?emailVerified=1 after the e-mail link: level 2 is complete, and with
 * startBiometric=1 the user continues to the biometric step with a click (a popup needs one).
 */
export function EmailVerifiedNotice({
  continueToBiometric,
  starting,
  blockedReason,
  onStart,
  gate = (start) => start,
}: {
  continueToBiometric: boolean
  starting: boolean
  /** Why the check cannot start yet: the button is disabled and says so. */
  blockedReason?: string
  onStart: () => void
  /** Stands in front of the button (e.g. a consent to give first); shows it by default. */
  gate?: (start: ReactNode) => ReactNode
}) {
  return (
    <Alert variant="success" icon={<MailCheck className="size-5" aria-hidden />} title="Nivel 2 Completado">
      <p>Tu correo electrónico quedó verificado.</p>
      {continueToBiometric && (
        <div className="mt-2 space-y-2">
          <p>Continúa con la verificación biométrica para completar tu Perfil Seguro.</p>
          {gate(
            <>
              <Button size="sm" onClick={onStart} disabled={starting || Boolean(blockedReason)}>
                {starting ? <span className="loading loading-spinner loading-xs" /> : <ScanFace className="size-4" aria-hidden />}
                Continuar con la verificación biométrica
              </Button>
              {blockedReason && <p>{blockedReason}</p>}
            </>,
          )}
        </div>
      )}
    </Alert>
  )
}
