import type { ReactNode } from 'react'
import { CalendarClock, RefreshCw } from 'lucide-react'
import type { ProfileUser } from '@/api/get-user'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'

const DAY_MS = 24 * 60 * 60 * 1000
/** Renewal opens this many days before the end (the server's RenewalWindow). */
export const RENEWAL_WINDOW_DAYS = 30

/** Whole days from now until the end of the validity (negative once it ended), or null. */
export function daysLeft(validUntil: string | null | undefined, now = Date.now()): number | null {
  if (!validUntil) return null
  const end = new Date(validUntil).getTime()
  if (Number.isNaN(end)) return null
  return Math.ceil((end - now) / DAY_MS)
}

function formatDate(value: string): string {
  return new Date(value).toLocaleDateString('es-MX', { year: 'numeric', month: 'long', day: 'numeric' })
}

/**
 * The validity of a verified profile on Mi Perfil: until when, how many days are left, and the
 * renewal (a new biometric check) once it ended or is within 30 days of its end.
 */
export function ValidityAlert({
  user,
  starting,
  polling,
  blockedReason,
  onRenew,
  gate = (start) => start,
}: {
  user: ProfileUser
  starting: boolean
  polling: boolean
  /** Why the renewal check cannot start yet (a renewal is a new purchase): the button is disabled and says so. */
  blockedReason?: string
  onRenew: () => void
  /** Stands in front of the renewal button (e.g. a consent to give first); shows it by default. */
  gate?: (start: ReactNode) => ReactNode
}) {
  const left = daysLeft(user.validUntil)
  if (left === null || !user.validUntil || user.revokedAt) return null
  const ended = left <= 0
  const renewable = left <= RENEWAL_WINDOW_DAYS
  const until = formatDate(user.validUntil)
  return (
    <Alert
      variant={ended ? 'destructive' : renewable ? 'warning' : 'info'}
      icon={<CalendarClock className="size-5" aria-hidden />}
      title={ended ? 'Tu validación expiró' : `Vigente hasta el ${until}`}
      data-testid="validity-alert"
    >
      <p>
        {ended
          ? `Tu Perfil Seguro venció el ${until}. Quien lo consulte verá «Expirado» hasta que lo renueves.`
          : left === 1
            ? 'Queda 1 día de vigencia.'
            : `Quedan ${left} días de vigencia.`}
      </p>
      {renewable && (
        <>
          <p className="mt-1">Renovar es repetir la verificación biométrica; tu pase y tu página pública se actualizan solos.</p>
          <div className="mt-2">
            {gate(
              <>
                <Button onClick={onRenew} disabled={starting || polling || Boolean(blockedReason)}>
                  {starting || polling ? <span className="loading loading-spinner loading-sm" /> : <RefreshCw className="size-4" aria-hidden />}
                  Renovar mi validación
                </Button>
                {blockedReason && <p className="mt-1">{blockedReason}</p>}
              </>,
            )}
          </div>
        </>
      )}
    </Alert>
  )
}
