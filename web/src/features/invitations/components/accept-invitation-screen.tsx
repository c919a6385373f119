import { useEffect, useState, type ReactNode } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Link, useNavigate, useSearchParams } from 'react-router-dom'
import { CalendarClock, CircleAlert, MailOpen } from 'lucide-react'
import { AcceptanceNote } from '@/components/legal/legal-links'
import { Alert } from '@/components/ui/alert'
import { Button, buttonClass } from '@/components/ui/button'
import { Card, CardBody, CardDescription, CardTitle } from '@/components/ui/card'
import { Field, Input } from '@/components/ui/input'
import { MxPhoneField } from '@/components/ui/mx-phone-field'
import { useToast } from '@/components/ui/toast'
import { ApiError, serverMessage } from '@/lib/api-client'
import { announceLogin, storageKeys, writeStorage } from '@/lib/storage'
import { useAcceptInvitation } from '../api/accept-invitation'
import type { PublicInvitation } from '../api/types'
import { INVITATION_EXPIRED, useValidateInvitation, type InvitationKey } from '../api/validate-invitation'
import { acceptInvitationSchema, invitationPhoneFilter, type AcceptInvitationValues } from '../schemas'
import { formatDate, typeLabel } from './format'

/** The code or token of the query string (SPEC §2: ?code= or ?token=). */
export function invitationKey(params: URLSearchParams): InvitationKey | null {
  const code = params.get('code')?.trim()
  if (code) return { by: 'code', value: code }
  const token = params.get('token')?.trim()
  if (token) return { by: 'token', value: token }
  return null
}

function LoginLink() {
  return (
    <p className="text-center text-sm text-base-content/70">
      ¿Ya tienes una cuenta?{' '}
      <Link to="/login" className="link link-primary">
        Inicia sesión
      </Link>
    </p>
  )
}

/** Who invites, as what, and the personal message. */
function InvitationSummary({ invitation }: { invitation: PublicInvitation }) {
  return (
    <div className="space-y-2 rounded-box bg-base-200 p-4 text-sm">
      <p>
        <strong>{invitation.inviterName}</strong> te invita a Perfil Seguro como <strong>{typeLabel[invitation.type]}</strong>
        {invitation.companyName ? (
          <>
            {' '}
            de <strong>{invitation.companyName}</strong>
          </>
        ) : null}
        .
      </p>
      {invitation.personalMessage && <blockquote className="border-l-4 border-primary/40 pl-3 italic whitespace-pre-line">{invitation.personalMessage}</blockquote>}
      <p className="flex items-center gap-1.5 text-base-content/70">
        <CalendarClock className="size-4" aria-hidden />
        Vence el {formatDate(invitation.expiresAt)}
      </p>
    </div>
  )
}

function AcceptForm({ invitation, onExpired, notice }: { invitation: PublicInvitation; onExpired: () => void; notice?: ReactNode }) {
  const accept = useAcceptInvitation()
  const navigate = useNavigate()
  const { toast } = useToast()
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<AcceptInvitationValues>({
    resolver: zodResolver(acceptInvitationSchema),
    defaultValues: { nombre: invitation.inviteeName, phone_number: '' },
  })

  const onSubmit = (values: AcceptInvitationValues) =>
    accept.mutate(
      { invitationCode: invitation.invitationCode, accepterData: { nombre: values.nombre.trim(), phone_number: values.phone_number.replace(/\s+/g, '') } },
      {
        onSuccess: ({ user }) => {
          writeStorage(storageKeys.userId, String(user.id))
          writeStorage(storageKeys.userData, JSON.stringify(user))
          announceLogin()
          navigate('/profile')
        },
        onError: (err) => {
          if (err instanceof ApiError && err.status === 410) {
            onExpired()
            return
          }
          toast({ title: 'Error', description: serverMessage(err, 'Error al aceptar invitación'), variant: 'destructive' })
        },
      },
    )

  return (
    <form className="space-y-4" onSubmit={handleSubmit(onSubmit)} noValidate>
      <Field label="Nombre completo" htmlFor="nombre" error={errors.nombre?.message}>
        <Input id="nombre" autoComplete="name" invalid={!!errors.nombre} {...register('nombre')} />
      </Field>
      <Field label="Correo electrónico" htmlFor="inviteeEmail">
        <Input id="inviteeEmail" type="email" value={invitation.inviteeEmail} readOnly disabled />
      </Field>
      <MxPhoneField
        control={control}
        name="phone_number"
        id="phone_number"
        label="Teléfono (WhatsApp)"
        hint="10 dígitos; agregamos la lada +52 de México."
        filter={invitationPhoneFilter}
        autoComplete="tel-national"
        inputMode="numeric"
      />
      <Button type="submit" className="w-full" disabled={accept.isPending} pending={accept.isPending}>
        {accept.isPending ? 'Aceptando...' : 'Aceptar invitación'}
      </Button>
      {notice}
      {/* The legal pages open in a new tab (AcceptanceNote): the same tab would lose the half-filled form. */}
      <AcceptanceNote lead="Al aceptar la invitación" className="text-xs leading-relaxed text-base-content/80" />
    </form>
  )
}

/** The invitation acceptance screen (SPEC §2); notice is the simplified privacy notice shown with the form. */
export function AcceptInvitationScreen({ notice }: { notice?: ReactNode }) {
  const [params] = useSearchParams()
  const [key] = useState(() => invitationKey(params))
  const check = useValidateInvitation(key)
  const [expiredLate, setExpiredLate] = useState(false)
  const { toast } = useToast()

  useEffect(() => {
    if (check.isError) toast({ title: 'Error', description: 'Error al validar la invitación', variant: 'destructive' })
  }, [check.isError, toast])

  let body
  if (!key) {
    body = <Alert variant="destructive" icon={<CircleAlert className="size-5" aria-hidden />} title="Código de invitación inválido" />
  } else if (check.isPending) {
    body = (
      <div className="flex justify-center py-10">
        <span className="loading loading-spinner loading-lg" aria-label="Validando invitación" />
      </div>
    )
  } else if (check.isError) {
    body = <Alert variant="destructive" icon={<CircleAlert className="size-5" aria-hidden />} title="Error al validar la invitación" />
  } else if (check.data.state === 'invalid') {
    body = <Alert variant="destructive" icon={<CircleAlert className="size-5" aria-hidden />} title={check.data.message} />
  } else if (check.data.state === 'expired' || expiredLate) {
    const invitation = check.data.invitation
    body = (
      <div className="space-y-4">
        <Alert variant="warning" icon={<CalendarClock className="size-5" aria-hidden />} title="Invitación expirada">
          {INVITATION_EXPIRED}
        </Alert>
        {invitation && <InvitationSummary invitation={invitation} />}
      </div>
    )
  } else {
    body = (
      <div className="space-y-5">
        <InvitationSummary invitation={check.data.invitation} />
        <AcceptForm invitation={check.data.invitation} onExpired={() => setExpiredLate(true)} notice={notice} />
      </div>
    )
  }

  return (
    <section className="mx-auto max-w-lg px-4 py-12">
      <Card>
        <CardBody className="space-y-5">
          <div className="space-y-1 text-center">
            <MailOpen className="mx-auto size-10 text-primary" aria-hidden />
            <CardTitle className="justify-center text-2xl">
              <span>Aceptar invitación</span>
            </CardTitle>
            <CardDescription>Crea tu perfil en Perfil Seguro para validar tu identidad una sola vez.</CardDescription>
          </div>
          {body}
          <LoginLink />
          {!key && (
            <div className="text-center">
              <Link to="/" className={buttonClass('ghost', 'sm')}>
                Volver al inicio
              </Link>
            </div>
          )}
        </CardBody>
      </Card>
    </section>
  )
}
