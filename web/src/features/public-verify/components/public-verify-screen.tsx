import type { ReactNode } from 'react'
import { Link } from 'react-router-dom'
import { CalendarCheck, CalendarX, Fingerprint, Mail, Phone, RefreshCw, ShieldAlert, ShieldCheck, User } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { buttonClass } from '@/components/ui/button'
import { Card, CardBody, CardTitle } from '@/components/ui/card'
import { ApiError, errorBody, isNetworkError } from '@/lib/api-client'
import { PROFILE_ID_PATTERN, usePublicVerification, type PublicVerification } from '../api/get-public-verification'
import { publicBadge } from '../badge'

// Every date on this page is Mexico City's, whoever reads it from wherever (as in Mi Perfil).
const MX_TIME_ZONE = 'America/Mexico_City'

/** A date in es-MX, Mexico City time, or '—'. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—'
  const date = new Date(value)
  return Number.isNaN(date.getTime())
    ? '—'
    : date.toLocaleDateString('es-MX', { year: 'numeric', month: 'long', day: 'numeric', timeZone: MX_TIME_ZONE })
}

/**
 * The "Vigencia" line: the plan's years or, when the identity document's expiry ends the
 * validity first (issue 52), its last day and why. api/spa_public_card.go writes the same.
 */
export function validityText(profile: PublicVerification['profile']): string {
  if (profile.vence_identificacion && profile.fecha_expiracion && !profile.expirado && !profile.revocado) {
    // fecha_expiracion is the end of the ID's expiry day: the instant before it is that day.
    const lastDay = new Date(new Date(profile.fecha_expiracion).getTime() - 1).toISOString()
    return `Vigente hasta ${formatDate(lastDay)} (vence su identificación)`
  }
  return `${profile.vigencia_anos} ${profile.vigencia_anos === 1 ? 'año' : 'años'}`
}

function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—'
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? '—' : date.toLocaleString('es-MX', { timeZone: MX_TIME_ZONE })
}

/** The biometric provider's environment, in words. */
const ENVIRONMENT: Record<string, string> = {
  production: 'Producción',
  development: 'Desarrollo (simulador)',
  test: 'Pruebas',
  sandbox: 'Pruebas del proveedor',
}

/** The failure text of SPEC §8: the server's message, else 'Error al verificar el perfil' or 'Error desconocido'. */
export function failureMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const message = errorBody(error)?.message
    return typeof message === 'string' && message ? message : 'Error al verificar el perfil'
  }
  if (isNetworkError(error) || error instanceof Error) return 'Error al verificar el perfil'
  return 'Error desconocido'
}

/** /verify/{profileId}: the public verification of a profile, refreshed every 30 seconds. */
export function PublicVerifyScreen({ profileId }: { profileId: string }) {
  const valid = PROFILE_ID_PATTERN.test(profileId)
  const query = usePublicVerification(profileId)

  let content: ReactNode
  if (!valid) {
    content = <Failure title="ID de perfil no válido" text={`"${profileId}" no tiene el formato PS-0000-0000-00.`} />
  } else if (query.isPending) {
    content = (
      <div className="flex justify-center py-16" aria-label="Cargando">
        <span className="loading loading-spinner loading-lg text-primary" />
      </div>
    )
  } else if (query.isError && !query.data) {
    content = <Failure title="No se pudo verificar el perfil" text={failureMessage(query.error)} />
  } else {
    content = <Verification data={query.data!} refreshing={query.isFetching} />
  }

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-10 sm:py-14">
      <div className="mb-6 text-center">
        <h1 className="text-3xl font-bold">Verificación de perfil</h1>
        <p className="mt-1 font-mono text-sm text-base-content/70">{profileId}</p>
      </div>
      {content}
    </div>
  )
}

function Failure({ title, text }: { title: string; text: string }) {
  return (
    <div className="space-y-4">
      <Alert variant="destructive" icon={<ShieldAlert className="size-5" aria-hidden />} title={title} titleLevel={2}>
        {text}
      </Alert>
      <div className="text-center">
        <Link to="/" className={buttonClass('outline')}>
          Volver al inicio
        </Link>
      </div>
    </div>
  )
}

function Verification({ data, refreshing }: { data: PublicVerification; refreshing: boolean }) {
  const { profile, verification_details: details } = data
  const badge = publicBadge(profile)
  const good = badge.label === 'Verificado'
  return (
    <div className="space-y-6">
      <Card>
        <CardBody className="gap-5">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div className="flex items-center gap-3">
              <div className={`rounded-full p-3 ${good ? 'bg-success/15 text-success' : 'bg-base-200 text-base-content/70'}`}>
                {good ? <ShieldCheck className="size-7" aria-hidden /> : <ShieldAlert className="size-7" aria-hidden />}
              </div>
              <div>
                <CardTitle className="text-2xl">{profile.nombre}</CardTitle>
                <p className="font-mono text-sm text-base-content/70">{profile.id}</p>
              </div>
            </div>
            <Badge variant={badge.variant} className="badge-lg" data-testid="public-badge">
              {badge.label}
            </Badge>
          </div>

          <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <Field icon={<Phone className="size-4" />} label="Teléfono" value={profile.telefono ?? 'No registrado'} />
            <Field icon={<Mail className="size-4" />} label="Correo electrónico" value={profile.email ?? 'No registrado'} />
            <Field icon={<User className="size-4" />} label="Origen" value={profile.origen} />
            <Field
              icon={<Fingerprint className="size-4" />}
              label="Nivel de verificación"
              value={profile.revocado ? 'Revocado' : `Nivel ${profile.nivel_verificacion} de 3`}
            />
            <Field icon={<CalendarCheck className="size-4" />} label="Fecha de validación" value={formatDate(profile.fecha_validacion)} />
            <Field
              icon={<CalendarX className="size-4" />}
              label="Fecha de expiración"
              value={formatDate(profile.fecha_expiracion)}
              emphasis={profile.expirado ? 'text-error' : undefined}
            />
            <Field
              icon={<CalendarCheck className="size-4" />}
              label="Vigencia"
              value={validityText(profile)}
            />
          </dl>
          {profile.revocado && (
            <Alert variant="destructive" title="Validación revocada">
              Perfil Seguro revocó la validación de esta identidad el {formatDate(profile.fecha_revocacion)}. No la
              consideres válida.
            </Alert>
          )}
          {profile.expirado && !profile.revocado && (
            <Alert variant="warning" title="Validación expirada">
              La validación de esta identidad venció el {formatDate(profile.fecha_expiracion)}.
            </Alert>
          )}
        </CardBody>
      </Card>

      <Card>
        <CardBody className="gap-4">
          <CardTitle>Detalles de la verificación biométrica</CardTitle>
          {details ? (
            <>
              <dl className="grid grid-cols-1 gap-4 sm:grid-cols-3">
                <Field label="ID de sesión" value={details.session_id ?? '—'} mono />
                <Field label="Ambiente" value={details.ambiente ? (ENVIRONMENT[details.ambiente] ?? details.ambiente) : '—'} />
                <Field label="Fecha de verificación" value={formatDate(details.fecha_verificacion)} />
              </dl>
              <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
                <Score label="Puntuación general" value={details.scores.overall} />
                <Score label="Coincidencia facial" value={details.scores.face_match} />
                <Score label="Documento" value={details.scores.document} />
                <Score label="Prueba de vida" value={details.scores.liveness} />
              </div>
            </>
          ) : (
            <p className="text-sm text-base-content/70">Este perfil aún no tiene una verificación biométrica registrada.</p>
          )}
        </CardBody>
      </Card>

      <p className="flex items-center justify-center gap-1.5 text-xs text-base-content/70">
        <RefreshCw className={`size-3 ${refreshing ? 'animate-spin' : ''}`} aria-hidden />
        Consultado el {formatDateTime(data.timestamp)} (hora de la Ciudad de México) · se actualiza cada 30 segundos
      </p>
    </div>
  )
}

function Field({ icon, label, value, mono, emphasis }: { icon?: ReactNode; label: string; value: string; mono?: boolean; emphasis?: string }) {
  return (
    <div>
      <dt className="flex items-center gap-1.5 text-xs uppercase tracking-wide text-base-content/70">
        {icon}
        {label}
      </dt>
      <dd className={`mt-0.5 font-medium break-words ${mono ? 'font-mono text-sm' : ''} ${emphasis ?? ''}`}>{value}</dd>
    </div>
  )
}

function Score({ label, value }: { label: string; value: number | null }) {
  return (
    <div>
      <div className="flex justify-between text-sm">
        <span>{label}</span>
        <span className="font-semibold">{value == null ? '—' : `${value.toLocaleString('es-MX', { maximumFractionDigits: 2 })}%`}</span>
      </div>
      <progress className="progress progress-primary w-full" value={value ?? 0} max={100} aria-label={label} />
    </div>
  )
}
