import { useEffect } from 'react'
import { useForm } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import { Field, Input } from '@/components/ui/input'
import { MxPhoneField } from '@/components/ui/mx-phone-field'
import { loadWhenIdle, lazyResolver } from '@/lib/lazy-module'
import type { RegisterValues } from '../schemas'
import { phoneTypingFilter } from '../typing'
import { authValidation } from '../validation'

// The rules load after the form paints; a submit before then waits for them (issue 38).
const resolver = lazyResolver(authValidation, (m) => m.registerResolver)

/** Step 1 of registration: full name, e-mail and WhatsApp number. */
export function RegisterForm({
  defaultValues,
  pending,
  onSubmit,
}: {
  defaultValues: RegisterValues
  pending: boolean
  onSubmit: (values: RegisterValues) => void
}) {
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<RegisterValues>({ resolver, defaultValues })
  useEffect(() => loadWhenIdle(authValidation), [])

  return (
    <form className="space-y-4" onSubmit={handleSubmit(onSubmit)} noValidate>
      <Field label="Nombre completo" htmlFor="fullName" error={errors.fullName?.message}>
        <Input id="fullName" autoComplete="name" placeholder="Ej. María Fernanda López" invalid={!!errors.fullName} {...register('fullName')} />
      </Field>
      <Field label="Correo electrónico" htmlFor="email" error={errors.email?.message}>
        <Input id="email" type="email" autoComplete="email" placeholder="tu@correo.com" invalid={!!errors.email} {...register('email')} />
      </Field>
      <MxPhoneField
        control={control}
        name="phoneNumber"
        id="phoneNumber"
        label="Número de WhatsApp"
        hint="10 dígitos. Agregamos la lada +52 de México automáticamente."
        filter={phoneTypingFilter}
        autoComplete="tel-national"
      />
      <Button type="submit" className="w-full" disabled={pending}>
        {pending && <span className="loading loading-spinner loading-sm" />}
        {pending ? 'Enviando código...' : 'Continuar'}
      </Button>
    </form>
  )
}
