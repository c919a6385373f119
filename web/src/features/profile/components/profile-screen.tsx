import type { ReactNode } from 'react'
import { useEffect, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom'
import { AlertTriangle, LifeBuoy, LogOut, UserX } from 'lucide-react'
import { useUser, userQueryOptions, type ProfileUser } from '@/api/get-user'
import { isBiometricVerified, useVerificationStatus, verificationStatusQueryOptions } from '@/api/get-verification-status'
import { DigitalIdCard } from '@/components/digital-id-card/digital-id-card'
import { Alert } from '@/components/ui/alert'
import { Button, buttonClass } from '@/components/ui/button'
import { Card, CardBody } from '@/components/ui/card'
import { useToast } from '@/components/ui/toast'
import { ApiError, isNetworkError, serverMessage } from '@/lib/api-client'
import { SUPPORT_EMAIL } from '@/lib/config'
import { readFlow } from '@/lib/hosted-flow'
import { clearStoredUser, useForgetSession } from '@/lib/session'
import { announceLogin, readStorage, storageKeys, writeStorage } from '@/lib/storage'
import { useLogout } from '../api/logout'
import { useSearchUser, type UserLookup } from '../api/search-user'
import { startVerification } from '../api/start-verification'
import { EmailVerificationCard } from './email-verification-card'
import { EmailVerifiedNotice } from './email-verified-notice'
import { IdentityOutcomeCard } from './identity-outcome-card'
import { PersonalInfoCard } from './personal-info-card'
import { ProfileSkeleton } from './profile-skeleton'
import { StatusAlerts } from './status-alerts'
import { ValidityAlert } from './validity-alert'
import { useBiometricPolling } from './use-biometric-polling'
import { passExpiry, REVOKED_BLOCKED_REASON, verificationState } from './verification-state'

/** Text of the load-error alert (SPEC §8). */
export const PROFILE_LOAD_ERROR =
  'No pudimos cargar tu perfil. Por favor, intenta nuevamente más tarde o contacta a soporte.'

type Target = { kind: 'redirect' } | { kind: 'id'; id: string } | { kind: 'lookup'; lookup: UserLookup }

/** Which user to show: query userId (PS- means profileId), stored userId, query email, query sessionToken. */
export function profileTarget(params: URLSearchParams, storedUserId: string | null): Target {
  const candidate = params.get('userId') || storedUserId
  if (candidate) {
    return candidate.startsWith('PS-') ? { kind: 'lookup', lookup: { by: 'profileId', value: candidate } } : { kind: 'id', id: candidate }
  }
  const email = params.get('email')
  if (email) return { kind: 'lookup', lookup: { by: 'email', value: email } }
  const sessionToken = params.get('sessionToken')
  if (sessionToken) return { kind: 'lookup', lookup: { by: 'sessionToken', value: sessionToken } }
  return { kind: 'redirect' }
}

/** Props of ProfileScreen: what other features add to it (the route composes them). */
export type ProfileScreenProps = {
  /** The verifiable-credential card of a validated profile that is still valid, or of a revoked one (saying so). */
  credential?: (profileId: string, userId: string, options: { revoked: boolean }) => ReactNode
  /** The plan and payment card, beside the personal information. */
  plan?: ReactNode
  /** Why the biometric check cannot start yet (e.g. the plan is unpaid); its buttons stay disabled with this hint. */
  biometricBlockedReason?: string
  /** Called when the biometric polling ends, whatever its outcome. */
  onBiometricFinished?: () => void
  /** What the person must read first (e.g. a new privacy notice to accept), above everything else. */
  notice?: (userId: string) => ReactNode
  /**
   * Stands in front of each button that starts the biometric check (e.g. the express consent for
   * biometric data): returns start, or what must happen first. asCard is false for a second such
   * button on the page, which should say less than the first.
   */
  biometricGate?: (userId: string, start: ReactNode, options: { asCard: boolean }) => ReactNode
  /** The person's own data and rights (Mis datos), below the rest. */
  myData?: (user: ProfileUser) => ReactNode
  /** How the person signs in (e.g. their passkeys), under the e-mail card. */
  signInMethods?: (userId: string) => ReactNode
  /** The person's know-your-client declaration (issue 53), under the sign-in methods. */
  amlDeclaration?: (userId: string) => ReactNode
}

/** The profile screen (SPEC §2 'Profile'). */
export function ProfileScreen(props: ProfileScreenProps = {}) {
  const [params] = useSearchParams()
  const [target] = useState(() => profileTarget(params, readStorage(storageKeys.userId)))
  const search = useSearchUser(target.kind === 'lookup' ? target.lookup : null)
  const found = search.data
  const userId = target.kind === 'id' ? target.id : found && !found.expired && !found.unauthorized ? String(found.id) : null
  const user = useUser(userId)
  const navigate = useNavigate()
  const unauthorized = user.error instanceof ApiError && user.error.status === 401

  // The server session is the truth: 401 means not signed in.
  useEffect(() => {
    if (unauthorized) {
      clearStoredUser()
      navigate('/login', { replace: true })
    }
  }, [unauthorized, navigate])

  // A profile reached by lookup belongs to this browser's session: remember it.
  useEffect(() => {
    if (user.data && readStorage(storageKeys.userId) !== String(user.data.id)) {
      writeStorage(storageKeys.userId, String(user.data.id))
      announceLogin()
    }
  }, [user.data])

  if (target.kind === 'redirect') return <Navigate to="/register" replace />
  if (found && (found.expired || found.unauthorized)) return <Navigate to="/register" replace />
  if (target.kind === 'lookup' && search.isPending) return <ProfileSkeleton />
  if (search.isError) return <LoadError />
  if (target.kind === 'lookup' && !found) return <NotFound />
  if (user.isPending || unauthorized) return <ProfileSkeleton />
  if (user.error instanceof ApiError && user.error.status === 404) return <NotFound />
  if (user.isError || !user.data) return <LoadError />
  return <ProfileView userId={String(user.data.id)} {...props} />
}

function Centered({ children }: { children: React.ReactNode }) {
  return <div className="mx-auto max-w-2xl px-4 py-16">{children}</div>
}

function LoadError() {
  return (
    <Centered>
      <h1 className="mb-6 text-3xl font-bold">Mi Perfil</h1>
      <Alert variant="destructive" icon={<AlertTriangle className="size-5" aria-hidden />} title="Error al cargar el perfil">
        {PROFILE_LOAD_ERROR}
      </Alert>
    </Centered>
  )
}

function NotFound() {
  return (
    <Centered>
      <h1 className="mb-6 text-3xl font-bold">Mi Perfil</h1>
      <Alert variant="warning" icon={<UserX className="size-5" aria-hidden />} title="Perfil no encontrado">
        <p>No encontramos un perfil asociado. Regístrate para crear tu Perfil Seguro.</p>
        <Link to="/register" className={buttonClass('default', 'sm', 'mt-3')}>
          Ir al registro
        </Link>
      </Alert>
    </Centered>
  )
}

function ProfileView({
  userId,
  credential,
  plan,
  biometricBlockedReason,
  onBiometricFinished,
  notice,
  biometricGate,
  myData,
  signInMethods,
  amlDeclaration,
}: { userId: string } & ProfileScreenProps) {
  const { data: user } = useUser(userId)
  const [params] = useSearchParams()
  const status = useVerificationStatus(userId)
  const queryClient = useQueryClient()
  const forgetSession = useForgetSession()
  const { toast } = useToast()
  const logout = useLogout()
  const [starting, setStarting] = useState(false)

  const biometric = useBiometricPolling(
    userId,
    (renewal) => {
      void queryClient.invalidateQueries({ queryKey: userQueryOptions(userId).queryKey })
      void queryClient.invalidateQueries({ queryKey: verificationStatusQueryOptions(userId).queryKey })
      toast(
        renewal
          ? { title: 'Validación renovada', description: 'Tu Perfil Seguro tiene una nueva vigencia. Tu pase se actualizará solo.' }
          : user?.testAccount
            ? { title: 'Verificación exitosa', description: 'Tu cuenta de prueba completó la verificación con el simulador.' }
            : { title: 'Verificación exitosa', description: 'Tu identidad ha sido verificada. Ya puedes generar tu pase de Apple Wallet.' },
      )
    },
    () =>
      toast({
        title: 'Verificación pendiente',
        description: 'Tu verificación sigue en proceso. Actualiza la página más tarde para ver el resultado.',
      }),
    onBiometricFinished,
  )

  if (!user) return null
  const state = verificationState(user)
  const biometricVerified = Boolean(user.biometricVerified) || isBiometricVerified(status.data)

  const signOut = async () => {
    try {
      await logout.mutateAsync()
    } catch {
      // Signed out locally whatever the server says (SPEC §4).
    }
    forgetSession()
  }

  const revoked = state === 'revoked'
  const continueToBiometric =
    params.get('emailVerified') === '1' &&
    params.get('startBiometric') === '1' &&
    state !== 'complete' &&
    !revoked &&
    !biometric.polling
  // While revoked nothing starts (the server answers 409 too): that reason wins over the plan's.
  const blockedReason = revoked ? REVOKED_BLOCKED_REASON : biometricBlockedReason
  // The first start button on the page gets the full gate (e.g. the consent card); a second one, a hint.
  // The cards come as the steps do: while the check is blocked (the plan unpaid, a revocation) the
  // consent is not asked yet, the disabled button says why.
  const gate = (asCard: boolean) => (start: ReactNode) =>
    biometricGate && !blockedReason ? biometricGate(userId, start, { asCard }) : start

  const beginVerification = async (renewal = false) => {
    // Open the window inside the click so popup blockers allow it, then point it at the provider.
    const popup = window.open('', '_blank')
    setStarting(true)
    try {
      const res = await startVerification(userId)
      if (!res.verificationUrl) {
        popup?.close()
        toast({
          title: 'Error',
          description: 'No se pudo iniciar la verificación. Intenta nuevamente.',
          variant: 'destructive',
        })
        return
      }
      if (popup) popup.location.href = res.verificationUrl
      else window.open(res.verificationUrl, '_blank')
      biometric.start(renewal)
    } catch (err) {
      popup?.close()
      toast({
        title: 'Error',
        description: isNetworkError(err)
          ? 'No se pudo conectar con el servicio de verificación. Intenta nuevamente.'
          : serverMessage(err, 'No se pudo iniciar la verificación. Intenta nuevamente.'),
        variant: 'destructive',
      })
    } finally {
      setStarting(false)
    }
  }

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">Mi Perfil</h1>
          <p className="text-base-content/70">Tu identidad digital y el estado de tu verificación.</p>
        </div>
        <Button variant="outline" onClick={signOut} disabled={logout.isPending}>
          <LogOut className="size-4" aria-hidden />
          Cerrar sesión
        </Button>
      </div>

      {notice?.(userId)}

      {user.testAccount && (
        <Alert variant="warning" title="Cuenta de prueba" data-testid="test-account">
          <p>
            La creaste desde la verificación de prueba de una plataforma: no es tu perfil real. Los códigos y enlaces llegan a
            la bandeja de prueba de la plataforma, no tiene página pública ni pases de Wallet y se borra 30 días después de
            crearse.
          </p>
        </Alert>
      )}

      {readFlow() && (
        <Alert variant="info" title="Tienes una verificación pendiente para una plataforma" data-testid="hosted-flow-return">
          <p>Cuando termines aquí, vuelve para decidir qué compartir.</p>
          <Link to="/conectar" className={buttonClass('default', 'sm', 'mt-3')}>
            Volver a la verificación
          </Link>
        </Alert>
      )}

      {params.get('emailVerified') === '1' && (
        <EmailVerifiedNotice
          continueToBiometric={continueToBiometric}
          starting={starting}
          blockedReason={blockedReason}
          onStart={() => void beginVerification()}
          gate={gate(true)}
        />
      )}

      <StatusAlerts
        state={state}
        biometricVerified={biometricVerified}
        lastBiometricStatus={status.data?.lastBiometricStatus}
        polling={biometric.polling}
        revokedReason={user.revokedAt ? (user.revokedReason ?? '') : null}
        testAccount={!!user.testAccount}
        level={user.verificationLevel ?? 0}
      />
      <IdentityOutcomeCard
        userId={userId}
        typedName={user.nombre}
        identity={status.data?.identity}
        starting={starting}
        polling={biometric.polling}
        blockedReason={blockedReason}
        onRestart={() => void beginVerification()}
      />
      {state === 'complete' && (
        <ValidityAlert
          user={user}
          starting={starting}
          polling={biometric.polling}
          blockedReason={biometricBlockedReason}
          onRenew={() => void beginVerification(true)}
          gate={gate(true)}
        />
      )}

      <div className="grid items-start gap-8 lg:grid-cols-[minmax(0,28rem)_1fr]">
        <section aria-label="Tu pase digital" className="space-y-3">
          <h2 className="text-lg font-semibold">Tu pase digital</h2>
          <DigitalIdCard
            name={user.nombre}
            id={user.profileId ?? user.id_validado ?? ''}
            verified={state === 'complete'}
            expirationDate={passExpiry(user)}
            qrCode={user.qr_url}
            userId={String(user.id)}
            ended={endedLabel(user)}
            testAccount={!!user.testAccount}
          />
          {!user.testAccount &&
            ((state === 'complete' && !endedLabel(user)) || revoked) &&
            credential?.(user.profileId ?? user.id_validado ?? '', String(user.id), { revoked })}
        </section>
        <div className="space-y-6">
          <PersonalInfoCard
            user={user}
            state={state}
            starting={starting}
            polling={biometric.polling}
            blockedReason={blockedReason}
            onStartVerification={() => void beginVerification()}
            gate={gate(!continueToBiometric)}
            nameFromDocument={!!status.data?.nameFromDocument}
          />
          {plan}
          <EmailVerificationCard userId={userId} level={user.verificationLevel ?? 0} email={user.email} />
          {signInMethods?.(userId)}
          {amlDeclaration?.(userId)}
          <Card>
            <CardBody className="flex-row items-center gap-3">
              <LifeBuoy className="size-6 shrink-0 text-primary" aria-hidden />
              <p className="text-sm">
                ¿Necesitas ayuda? Escríbenos a{' '}
                <a href={`mailto:${SUPPORT_EMAIL}`} className="link link-primary font-medium">
                  {SUPPORT_EMAIL}
                </a>
              </p>
            </CardBody>
          </Card>
        </div>
      </div>

      {myData?.(user)}
    </div>
  )
}

/** What the card says of a validation that ended: revoked wins; expired once the validity is over. */
function endedLabel(user: ProfileUser): 'Expirado' | 'Revocado' | null {
  if (user.revokedAt) return 'Revocado'
  if (user.expiredAt || (user.validUntil && new Date(user.validUntil).getTime() < Date.now())) return 'Expirado'
  return null
}
