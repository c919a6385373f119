import type { ReactNode } from 'react'
import { KeyRound } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { ScreenCard } from '@/components/ui/card'
import { serverMessage } from '@/lib/api-client'

/** What the screen reads of the query that checks the enrolment link. */
type EnrolmentQuery<T> = { isError: boolean; isPending: boolean; error: unknown; data?: T }

/**
 * The screen where an invited person (an administrator, a platform's team member) registers their
 * passkey from a one-time link: a missing or spent link says so; otherwise who they are and
 * 'Crear llave de acceso'.
 */
export function PasskeyEnrolScreen<T>({
  description,
  token,
  info,
  missingLink,
  afterRefusal,
  children,
  error,
  busy,
  onEnrol,
  footnote,
}: {
  /** Where the passkey lets them in. */
  description: string
  /** The link's token; '' when the link had none. */
  token: string
  info: EnrolmentQuery<T>
  /** Said when the link has no token. */
  missingLink: string
  /** Under the refusal of a missing or spent link (a way on). */
  afterRefusal?: ReactNode
  /** Who they are, once the link is read. */
  children: (data: T) => ReactNode
  /** Why the last try failed. */
  error: string
  busy: boolean
  onEnrol: () => void
  /** Under the button. */
  footnote?: ReactNode
}) {
  return (
    <ScreenCard icon={KeyRound} title="Registra tu llave de acceso" description={description}>
      {!token || info.isError ? (
        <>
          <Alert variant="destructive">{token ? serverMessage(info.error, 'Este enlace ya no sirve.') : missingLink}</Alert>
          {afterRefusal}
        </>
      ) : info.isPending || info.data === undefined ? (
        <span className="loading loading-spinner loading-sm mx-auto" role="status" aria-label="Cargando" />
      ) : (
        <>
          {children(info.data)}
          {error && <Alert variant="destructive">{error}</Alert>}
          <Button onClick={onEnrol} disabled={busy} pending={busy}>
            Crear llave de acceso
          </Button>
          {footnote}
        </>
      )}
    </ScreenCard>
  )
}
