import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Field, Input } from '@/components/ui/input'
import { useToast } from '@/components/ui/toast'
import { ApiError, serverMessage } from '@/lib/api-client'
import { useUpdatePersonalData, type PrivacyUser } from '../api/update-personal-data'
import { nameSchema, type NameValues } from '../schemas'

/** What a validated person reads before changing their name. */
export const REVALIDATION_WARNING =
  'Si cambias tu nombre, tu validación biométrica dejará de ser válida y tendrás que validar tu identidad de nuevo. Tu pase y tu credencial se anularán.'

/**
 * Corrects one's name (rectificación). A validated person (level 3) is warned first: the
 * validation was of the old name, so it ends and the check must be repeated.
 */
export function NameForm({ user, onUserChanged }: { user: PrivacyUser; onUserChanged: () => void }) {
  const userId = String(user.id)
  const validated = Boolean(user.biometricVerified) && (user.verificationLevel ?? 0) >= 3
  const update = useUpdatePersonalData()
  const { toast } = useToast()
  const [confirming, setConfirming] = useState<string | null>(null)
  const {
    register,
    handleSubmit,
    reset,
    watch,
    formState: { errors },
  } = useForm<NameValues>({ resolver: zodResolver(nameSchema), defaultValues: { nombre: user.nombre } })

  useEffect(() => reset({ nombre: user.nombre }), [user.nombre, reset])

  const unchanged = watch('nombre').trim() === user.nombre.trim()

  const save = (nombre: string, confirmRevalidation: boolean) =>
    update.mutate(
      { userId, nombre, confirmRevalidation },
      {
        onSuccess: () => {
          setConfirming(null)
          toast({
            title: 'Nombre actualizado',
            description: confirmRevalidation ? 'Valida tu identidad de nuevo para recuperar tu pase.' : 'Tu nombre quedó corregido.',
          })
          onUserChanged()
        },
        onError: (err) => {
          // The server knows better that the profile is validated: ask, then send the confirmation.
          if (err instanceof ApiError && err.status === 409 && !confirmRevalidation) {
            setConfirming(nombre)
            return
          }
          setConfirming(null)
          toast({ title: 'Error', description: serverMessage(err, 'No pudimos guardar tu nombre. Intenta de nuevo.'), variant: 'destructive' })
        },
      },
    )

  const onSubmit = ({ nombre }: NameValues) => {
    if (validated) setConfirming(nombre)
    else save(nombre, false)
  }

  return (
    <>
      <form className="space-y-3" onSubmit={handleSubmit(onSubmit)} noValidate>
        <Field label="Nombre completo" htmlFor="privacy-nombre" error={errors.nombre?.message}>
          <Input id="privacy-nombre" autoComplete="name" invalid={!!errors.nombre} {...register('nombre')} />
        </Field>
        {validated && <p className="text-xs text-base-content/70">Cambiar tu nombre anula tu validación biométrica.</p>}
        <Button type="submit" variant="outline" disabled={unchanged || update.isPending} pending={update.isPending && !confirming}>
          Guardar nombre
        </Button>
      </form>
      <ConfirmDialog
        open={confirming !== null}
        pending={update.isPending}
        title="¿Cambiar tu nombre?"
        confirmLabel="Sí, cambiar mi nombre"
        onCancel={() => setConfirming(null)}
        onConfirm={() => confirming && save(confirming, true)}
      >
        <p>{REVALIDATION_WARNING}</p>
      </ConfirmDialog>
    </>
  )
}
