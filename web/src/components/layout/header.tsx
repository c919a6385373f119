import { useEffect } from 'react'
import { Link, NavLink } from 'react-router-dom'
import { Lock, ShieldCheck, UserRound, Users } from 'lucide-react'
import { useAuthStatus } from '@/api/get-auth-status'
import { isBiometricVerified, useVerificationStatus } from '@/api/get-verification-status'
import { buttonClass } from '@/components/ui/button'
import { PRODUCT_NAME } from '@/lib/config'
import { clearStoredUser, useStoredUserId } from '@/lib/session'
import { SectionLinkList } from './section-link-list'
import type { SectionLink } from './section-links'
import { ThemeToggle } from './theme-toggle'

/** Hint on the locked Invitaciones entry. */
export const INVITATIONS_LOCKED_HINT = 'Completa tu verificación biométrica para acceder a invitaciones'

/** Hint on the locked Invitaciones entry while the validation is revoked (issue 38). */
export const INVITATIONS_REVOKED_HINT = 'Tu validación fue revocada: las invitaciones no están disponibles'

/** Header refresh of the verification status (SPEC §9). */
const STATUS_REFRESH_MS = 30_000

/** The sticky site header of SPEC §2, with the given landing anchors; left out of print (with its nav and theme toggle). */
export function Header({ sectionLinks }: { sectionLinks: readonly SectionLink[] }) {
  const userId = useStoredUserId()

  return (
    <header className="sticky top-0 z-50 border-b border-base-300 bg-base-100/85 backdrop-blur print:hidden">
      <nav className="navbar mx-auto max-w-7xl gap-1 px-2 sm:gap-2 sm:px-4" aria-label="Principal">
        <div className="flex-1">
          <Link to="/" className="flex items-center gap-1.5 whitespace-nowrap text-base font-bold text-primary sm:gap-2 sm:text-lg">
            <ShieldCheck className="size-6 shrink-0 sm:size-7" aria-hidden />
            {/* Below 420 px the name would push the sign-in buttons off the screen: the shield stays. */}
            <span className="max-[419px]:sr-only">{PRODUCT_NAME}</span>
          </Link>
        </div>
        <SectionLinkList links={sectionLinks} className="hidden items-center gap-1 md:flex" linkClassName="btn btn-ghost btn-sm font-medium" />
        <div className="flex items-center gap-1 sm:gap-2">
          <ThemeToggle />
          {userId ? <SignedInLinks userId={userId} /> : <SignedOutLinks />}
        </div>
      </nav>
    </header>
  )
}

function SignedOutLinks() {
  return (
    <>
      <Link to="/login" className={buttonClass('ghost', 'sm')}>
        Iniciar Sesión
      </Link>
      <Link to="/register" className={buttonClass('default', 'sm')}>
        Registrarse
      </Link>
    </>
  )
}

function SignedInLinks({ userId }: { userId: string }) {
  const auth = useAuthStatus(true)
  const status = useVerificationStatus(userId, STATUS_REFRESH_MS)
  const biometricVerified = isBiometricVerified(status.data)
  const lockedHint = status.data?.revoked ? INVITATIONS_REVOKED_HINT : INVITATIONS_LOCKED_HINT

  // The server session is the truth: a 401 on the status check signs the UI out.
  useEffect(() => {
    if (auth.isSuccess && auth.data === null) clearStoredUser()
  }, [auth.isSuccess, auth.data])

  return (
    <>
      {biometricVerified ? (
        <NavLink to="/invitations" className={buttonClass('ghost', 'sm')}>
          <Users className="size-4" aria-hidden />
          <span className="max-sm:sr-only">Invitaciones</span>
        </NavLink>
      ) : (
        // On a phone there is no hover, and the hidden tooltip's box would widen the page sideways.
        <span className="sm:tooltip sm:tooltip-bottom" data-tip={lockedHint}>
          <span
            className={buttonClass('ghost', 'sm', 'cursor-not-allowed text-base-content/40 hover:bg-transparent')}
            aria-disabled="true"
            title={lockedHint}
          >
            <Lock className="size-4" aria-hidden />
            <span className="max-sm:sr-only">Invitaciones</span>
          </span>
        </span>
      )}
      <NavLink to="/profile" className={buttonClass('default', 'sm')}>
        <UserRound className="size-4" aria-hidden />
        <span className="max-sm:sr-only">Mi Perfil</span>
      </NavLink>
    </>
  )
}
