import { useEffect, useRef, type ReactNode } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { Link, useNavigate } from 'react-router-dom'
import { Info } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Field, Input } from '@/components/ui/input'
import { useToast } from '@/components/ui/toast'
import { serverMessage } from '@/lib/api-client'
import { loadWhenIdle, lazyResolver } from '@/lib/lazy-module'
import { storageKeys, writeStorage } from '@/lib/storage'
import { useLogin, type LoginInput } from '../api/login'
import type { LoginValues } from '../schemas'
import { authValidation } from '../validation'
import { AuthCard } from './auth-card'
import { SignInPhoneInput } from './sign-in-phone-input'

// The rules load after the form paints; a submit before then waits for them (issue 38).
const resolver = lazyResolver(authValidation, (m) => m.loginResolver)

/** Delay before the code screen after a successful sign-in request (SPEC §9). */
export const LOGIN_REDIRECT_MS = 1500

/** Props of LoginScreen: what other features add to it (the route composes them). */
export type LoginScreenProps = {
  /**
   * Another way in, below the code form (e.g. "Entrar con llave de acceso"). The e-mail field's
   * autocomplete says "username webauthn", so such a way may also offer itself in its suggestions.
   */
  alternative?: ReactNode
}

/** Sign-in (SPEC §2): e-mail, WhatsApp phone or both; a code is sent by WhatsApp. */
export function LoginScreen({ alternative }: LoginScreenProps = {}) {
  const navigate = useNavigate()
  const { toast } = useToast()
  const login = useLogin()
  const redirectTimer = useRef<number>(undefined)
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginValues>({ resolver, defaultValues: { email: '', phoneNumber: '' } })

  useEffect(() => loadWhenIdle(authValidation), [])
  useEffect(() => () => window.clearTimeout(redirectTimer.current), [])

  const onSubmit = async (values: LoginValues) => {
    const payload: LoginInput = {}
    if (values.email) payload.email = values.email
    if (values.phoneNumber) payload.phoneNumber = values.phoneNumber
    try {
      const res = await login.mutateAsync(payload)
      if (res.success === false || res.userId === undefined || res.userId === null) {
        toast({ title: 'Error', description: res.message || 'Error al iniciar sesión', variant: 'destructive' })
        return
      }
      writeStorage(storageKeys.pendingUserId, String(res.userId))
      writeStorage(storageKeys.loginEmail, payload.email ?? '')
      writeStorage(storageKeys.loginPhone, payload.phoneNumber ?? '')
      // Say where the code went: by WhatsApp when the account holds the phone asked for, else by
      // e-mail (the server's message says which).
      const byEmail = !payload.phoneNumber || /correo/i.test(res.message ?? '')
      toast({
        title: 'Código enviado',
        description: byEmail ? 'Código de verificación enviado a tu correo electrónico' : 'Código de verificación enviado por WhatsApp',
      })
      redirectTimer.current = window.setTimeout(() => navigate('/verify-code'), LOGIN_REDIRECT_MS)
    } catch (err) {
      toast({ title: 'Error', description: serverMessage(err, 'Error al iniciar sesión'), variant: 'destructive' })
    }
  }

  const waiting = login.isPending || login.isSuccess

  return (
    <AuthCard
      title="Iniciar Sesión"
      subtitle="Te enviaremos un código de acceso por WhatsApp"
      footer={
        <p>
          ¿No tienes cuenta?{' '}
          <Link to="/register" className="link link-primary font-medium">
            Regístrate aquí
          </Link>
        </p>
      }
    >
      <form className="space-y-4" onSubmit={handleSubmit(onSubmit)} noValidate>
        <Field label="Correo electrónico (opcional)" htmlFor="email" error={errors.email?.message}>
          <Input id="email" type="email" autoComplete="username webauthn" placeholder="tu@correo.com" invalid={!!errors.email} {...register('email')} />
        </Field>
        <Field label="Teléfono WhatsApp (opcional)" htmlFor="phoneNumber">
          <Controller
            control={control}
            name="phoneNumber"
            render={({ field }) => (
              <SignInPhoneInput id="phoneNumber" value={field.value} onChange={field.onChange} onBlur={field.onBlur} />
            )}
          />
        </Field>
        <p className="flex items-start gap-2 rounded-lg bg-base-200 p-3 text-xs text-base-content/70">
          <Info className="mt-0.5 size-4 shrink-0 text-info" aria-hidden />
          Puedes iniciar sesión solo con tu correo, solo con tu teléfono o con ambos.
        </p>
        <Button type="submit" className="w-full" disabled={waiting}>
          {waiting && <span className="loading loading-spinner loading-sm" />}
          {waiting ? 'Enviando código...' : 'Enviar código'}
        </Button>
      </form>
      {alternative && (
        <>
          <div className="divider text-sm text-base-content/60">o</div>
          {alternative}
        </>
      )}
    </AuthCard>
  )
}
