import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { MailCheck } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { CodeInput } from '@/components/ui/code-input'
import { Field, Input } from '@/components/ui/input'
import { MxPhoneField } from '@/components/ui/mx-phone-field'
import { useToast } from '@/components/ui/toast'
import { ApiError, serverMessage } from '@/lib/api-client'
import { mxPhoneTypingFilter, withMxPrefix } from '@/lib/phone'
import { useRequestContactChange, type ContactChangeAccepted } from '../api/request-contact-change'
import { useVerifyContactChange } from '../api/verify-contact-change'
import { codeSubmit } from '@/lib/code-submit'
import { contactSchema, type ContactValues } from '../schemas'
import { IdentityConfirmation } from '@/components/identity-confirmation'

/** How long the development-only code toast stays (as in the registration). */
export const TEST_CODE_TOAST_MS = 10_000

const EMPTY: ContactValues = { channel: 'email', email: '', phoneNumber: '' }

/**
 * Changes one's e-mail or phone: first the person confirms from the current contact (a code to
 * it, or a passkey), so a stolen session alone cannot take the account; then a code goes to the
 * new address and the change happens when it comes back, so nobody can point the account at an
 * address they do not hold. The old address is told, with a link that undoes the change.
 */
export function ContactChangeForm({ userId, onUserChanged }: { userId: string; onUserChanged: () => void }) {
  const request = useRequestContactChange()
  const verify = useVerifyContactChange()
  const { toast } = useToast()
  const [confirmed, setConfirmed] = useState(false)
  const [confirmError, setConfirmError] = useState<string>()
  const [sent, setSent] = useState<ContactChangeAccepted | null>(null)
  const [requestError, setRequestError] = useState<string>()
  const [code, setCode] = useState('')
  const [codeError, setCodeError] = useState<string>()
  const {
    register,
    control,
    handleSubmit,
    watch,
    reset,
    formState: { errors },
  } = useForm<ContactValues>({ resolver: zodResolver(contactSchema), defaultValues: EMPTY })
  const channel = watch('channel')

  const onSubmit = (values: ContactValues) => {
    setRequestError(undefined)
    const change = values.channel === 'email' ? { email: values.email } : { phoneNumber: withMxPrefix(values.phoneNumber) }
    request.mutate(
      { userId, change },
      {
        onSuccess: (res) => {
          setSent(res)
          setCode('')
          setCodeError(undefined)
          if (res.verificationCode) toast({ title: 'Código para pruebas', description: res.verificationCode, duration: TEST_CODE_TOAST_MS })
        },
        onError: (err) => {
          const message = serverMessage(err, 'No pudimos enviar el código. Intenta de nuevo.')
          if (err instanceof ApiError && err.status === 403) {
            // The confirmation is older than 5 minutes: confirm again.
            setConfirmed(false)
            setConfirmError(message)
            return
          }
          setRequestError(message)
        },
      },
    )
  }

  const submitCode = codeSubmit(code, setCodeError, (checked) =>
    verify.mutate(
      { userId, code: checked },
      {
        onSuccess: () => {
          toast({
            title: 'Datos actualizados',
            description: sent?.channel === 'phone' ? 'Tu teléfono quedó actualizado.' : 'Tu correo electrónico quedó actualizado.',
          })
          setSent(null)
          setConfirmed(false)
          reset(EMPTY)
          onUserChanged()
        },
        onError: (err) => setCodeError(serverMessage(err, 'Código de verificación incorrecto')),
      },
    ),
  )

  if (!confirmed) {
    return (
      <IdentityConfirmation
        userId={userId}
        idPrefix="contact"
        error={confirmError}
        onConfirmed={() => {
          setConfirmError(undefined)
          setConfirmed(true)
        }}
      >
        Para cambiar tu correo o teléfono, primero confirma que eres tú: te enviamos un código a tu teléfono actual (o a tu
        correo, si no tienes teléfono), o usa tu llave de acceso. Avisaremos a tu dato anterior y cerraremos tus otras sesiones.
      </IdentityConfirmation>
    )
  }

  if (sent) {
    return (
      <form className="space-y-3" onSubmit={submitCode} noValidate data-testid="contact-code">
        <Alert variant="info" icon={<MailCheck className="size-5" aria-hidden />}>
          {sent.message}
        </Alert>
        <Field label="Código de verificación" htmlFor="contact-code" error={codeError}>
          <CodeInput
            id="contact-code"
            value={code}
            disabled={verify.isPending}
            invalid={!!codeError}
            onChange={(v) => {
              setCode(v)
              setCodeError(undefined)
            }}
          />
        </Field>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={code.length !== 6 || verify.isPending} pending={verify.isPending}>
            Verificar código
          </Button>
          <Button variant="ghost" onClick={() => setSent(null)} disabled={verify.isPending}>
            Cancelar
          </Button>
        </div>
      </form>
    )
  }

  return (
    <form className="space-y-3" onSubmit={handleSubmit(onSubmit)} noValidate>
      <fieldset className="flex flex-wrap gap-4">
        <legend className="mb-1.5 text-sm font-medium">¿Qué quieres cambiar?</legend>
        <label className="flex cursor-pointer items-center gap-2">
          <input type="radio" className="radio radio-primary radio-sm" value="email" {...register('channel')} />
          Correo electrónico
        </label>
        <label className="flex cursor-pointer items-center gap-2">
          <input type="radio" className="radio radio-primary radio-sm" value="phone" {...register('channel')} />
          Teléfono
        </label>
      </fieldset>
      {channel === 'email' ? (
        <Field label="Nuevo correo electrónico" htmlFor="contact-email" error={errors.email?.message}>
          <Input
            id="contact-email"
            type="email"
            autoComplete="email"
            placeholder="tu@correo.com"
            invalid={!!errors.email}
            {...register('email')}
          />
        </Field>
      ) : (
        <MxPhoneField
          control={control}
          name="phoneNumber"
          id="contact-phone"
          label="Nuevo teléfono (WhatsApp)"
          hint="10 dígitos; agregamos la lada +52 de México."
          filter={mxPhoneTypingFilter}
          autoComplete="tel-national"
          inputMode="numeric"
        />
      )}
      {requestError && <Alert variant="destructive">{requestError}</Alert>}
      <Button type="submit" variant="outline" disabled={request.isPending} pending={request.isPending}>
        Enviar código
      </Button>
    </form>
  )
}
