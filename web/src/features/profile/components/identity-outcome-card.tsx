import { useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { CalendarX, Copy, FileSearch, ScanFace, ShieldAlert, UserRoundX } from 'lucide-react'
import { userQueryOptions } from '@/api/get-user'
import { verificationStatusQueryOptions, type IdentityOutcome } from '@/api/get-verification-status'
import { IdentityConfirmation } from '@/components/identity-confirmation'
import { Alert } from '@/components/ui/alert'
import { Button, buttonClass } from '@/components/ui/button'
import { useToast } from '@/components/ui/toast'
import { ApiError, serverMessage } from '@/lib/api-client'
import { SUPPORT_EMAIL } from '@/lib/config'
import { useAdoptDocumentName } from '../api/adopt-document-name'

// Issue 52: what the person's ID certified, one screen per verdict of their latest approved check.

/** The texts of each screen, as issue 52 words them. */
export const IDENTITY_TEXT = {
  fromDocument: 'Tomamos tu nombre de tu identificación oficial.',
  mismatch: 'El nombre de tu registro no coincide con el de tu identificación.',
  adopt: 'Usar el nombre de mi identificación',
  support: 'Contactar a soporte',
  review: 'Un especialista está revisando tu identificación. Te avisaremos por correo.',
  duplicate: 'Esta identificación ya está vinculada a otro perfil.',
  duplicateRecover:
    'Si ese perfil es tuyo, entra con tu teléfono o correo (te enviamos un código), con tu llave de acceso, o escribe a soporte.',
  expired: 'Tu identificación estaba vencida. Vuelve a verificarte con una identificación vigente.',
  underAge: 'Para usar Perfil Seguro necesitas ser mayor de 18 años.',
  declined: 'La revisión de tu identificación no la aprobó. Vuelve a verificarte con tu identificación oficial vigente o escribe a soporte.',
} as const

/** The line under the name of a profile whose name came from its ID. */
export function NameFromDocumentNote() {
  return (
    <span className="block text-xs font-normal text-base-content/70" data-testid="name-from-document">
      {IDENTITY_TEXT.fromDocument}
    </span>
  )
}

function SupportLink() {
  return (
    <a href={`mailto:${SUPPORT_EMAIL}`} className="link link-primary font-medium">
      {SUPPORT_EMAIL}
    </a>
  )
}

/**
 * The outcome of the latest identity check, when it asks something of the person or explains
 * why there is no level 3: a mismatch (take the ID's name, after a confirmation, or ask support),
 * a review, an ID already bound, expired, a minor, or a declined review. Nothing for a match or a
 * settled mismatch (the name line under the name says it) or before any check.
 */
export function IdentityOutcomeCard({
  userId,
  typedName,
  identity,
  starting = false,
  polling = false,
  blockedReason,
  onRestart,
}: {
  userId: string
  /** The name the person registered (the profile's name until they adopt the ID's). */
  typedName: string
  identity: IdentityOutcome | null | undefined
  starting?: boolean
  polling?: boolean
  /** Why no new check can start (e.g. revoked): the restart button is disabled. */
  blockedReason?: string
  /** Starts a new biometric check (expired ID). */
  onRestart?: () => void
}) {
  if (!identity) return null
  if (identity.resolution === 'declined') {
    return (
      <Alert variant="destructive" icon={<ShieldAlert className="size-5" aria-hidden />} title="Identificación no aprobada" data-testid="identity-outcome" data-verdict="declined">
        <p>{IDENTITY_TEXT.declined}</p>
        <p className="mt-1">
          Soporte: <SupportLink />
        </p>
      </Alert>
    )
  }
  if (identity.resolution) return null
  switch (identity.verdict) {
    case 'mismatch':
      return <MismatchCard userId={userId} typedName={typedName} documentName={identity.documentName} />
    case 'near':
    case 'no_document':
      return (
        <Alert variant="info" icon={<FileSearch className="size-5" aria-hidden />} title="En revisión" data-testid="identity-outcome" data-verdict={identity.verdict}>
          {IDENTITY_TEXT.review}
        </Alert>
      )
    case 'duplicate':
      return (
        <Alert variant="warning" icon={<Copy className="size-5" aria-hidden />} title="Identificación ya registrada" data-testid="identity-outcome" data-verdict="duplicate">
          <p>{IDENTITY_TEXT.duplicate}</p>
          <p className="mt-1">{IDENTITY_TEXT.duplicateRecover}</p>
          <p className="mt-1">
            Soporte: <SupportLink />
          </p>
        </Alert>
      )
    case 'expired_document':
      return (
        <Alert variant="warning" icon={<CalendarX className="size-5" aria-hidden />} title="Identificación vencida" data-testid="identity-outcome" data-verdict="expired_document">
          <p>{IDENTITY_TEXT.expired}</p>
          {onRestart && (
            <div className="mt-2 space-y-1">
              <Button size="sm" onClick={onRestart} disabled={starting || polling || Boolean(blockedReason)} pending={starting || polling}>
                {!(starting || polling) && <ScanFace className="size-4" aria-hidden />}
                Verificarme de nuevo
              </Button>
              {blockedReason && <p className="text-xs">{blockedReason}</p>}
            </div>
          )}
        </Alert>
      )
    case 'under_age':
      return (
        <Alert variant="warning" icon={<UserRoundX className="size-5" aria-hidden />} title="Necesitas ser mayor de edad" data-testid="identity-outcome" data-verdict="under_age">
          {IDENTITY_TEXT.underAge}
        </Alert>
      )
    default:
      return null
  }
}

/** The mismatch: both names, take the ID's (after a confirmation) or ask support. */
function MismatchCard({ userId, typedName, documentName }: { userId: string; typedName: string; documentName: string }) {
  const adopt = useAdoptDocumentName()
  const queryClient = useQueryClient()
  const { toast } = useToast()
  const [confirming, setConfirming] = useState(false)
  const [error, setError] = useState<string>()
  const [confirmError, setConfirmError] = useState<string>()

  const adoptNow = () => {
    setError(undefined)
    adopt.mutate(userId, {
      onSuccess: (user) => {
        queryClient.setQueryData(userQueryOptions(userId).queryKey, user)
        void queryClient.invalidateQueries({ queryKey: userQueryOptions(userId).queryKey })
        void queryClient.invalidateQueries({ queryKey: verificationStatusQueryOptions(userId).queryKey })
        toast({
          title: 'Identidad verificada',
          description: `Tu perfil ahora lleva el nombre de tu identificación: ${user.nombre}. Tu pase se actualizará solo.`,
        })
      },
      onError: (err) => {
        const message = serverMessage(err, 'No pudimos usar el nombre de tu identificación. Intenta de nuevo.')
        if (err instanceof ApiError && err.status === 403) {
          // The confirmation lapsed: ask for it again.
          setConfirmError(message)
          setConfirming(true)
          return
        }
        setError(message)
      },
    })
  }

  return (
    <Alert variant="warning" icon={<ShieldAlert className="size-5" aria-hidden />} title="Tu nombre no coincide con tu identificación" data-testid="identity-outcome" data-verdict="mismatch">
      <p>{IDENTITY_TEXT.mismatch}</p>
      <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
        <dt className="text-base-content/70">Nombre de tu registro</dt>
        <dd className="font-medium" data-testid="typed-name">
          {typedName}
        </dd>
        <dt className="text-base-content/70">Nombre en tu identificación</dt>
        <dd className="font-medium" data-testid="document-name">
          {documentName}
        </dd>
      </dl>
      <p className="mt-2">Mientras no se resuelva, no certificamos tu identidad ni emitimos tu pase.</p>
      {error && (
        <Alert variant="destructive" className="mt-2">
          {error}
        </Alert>
      )}
      {confirming ? (
        <div className="mt-3">
          <IdentityConfirmation
            userId={userId}
            idPrefix="adopt-name"
            error={confirmError}
            onConfirmed={() => {
              setConfirmError(undefined)
              setConfirming(false)
              adoptNow()
            }}
          >
            Para usar el nombre de tu identificación, primero confirma que eres tú: con un código a tu contacto actual o con tu
            llave de acceso.
          </IdentityConfirmation>
        </div>
      ) : (
        <div className="mt-3 flex flex-wrap gap-2">
          <Button size="sm" onClick={() => setConfirming(true)} disabled={adopt.isPending} pending={adopt.isPending}>
            {IDENTITY_TEXT.adopt}
          </Button>
          <a href={`mailto:${SUPPORT_EMAIL}`} className={buttonClass('outline', 'sm')}>
            {IDENTITY_TEXT.support}
          </a>
        </div>
      )}
    </Alert>
  )
}
