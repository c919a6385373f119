import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Field, Input, Select } from '@/components/ui/input'
import { useToast } from '@/components/ui/toast'
import { errorBody, serverMessage } from '@/lib/api-client'
import { useAdminUser } from '../api/get-admin-user'
import { useSaveUser } from '../api/save-user'
import { ADMIN_ORIGINS, adminUserSchema, INVITATION_ORIGIN, NEW_USER_DEFAULTS, VIGENCIA_OPTIONS, type AdminUserValues } from '../schemas'
import { useAdminUnauthorizedOn } from './use-admin-unauthorized'

const ORIGIN_OPTIONS = ADMIN_ORIGINS.map((o) => ({ value: o, label: o }))

/** The create/edit form of the admin panel; userId null creates. Calls onDone after save or cancel. */
export function UserForm({ userId, onDone }: { userId: number | null; onDone: () => void }) {
  const { toast } = useToast()
  const save = useSaveUser()
  const existing = useAdminUser(userId)
  // A validated person's new name annuls their validation: the server asks, the dialog confirms.
  const [annulling, setAnnulling] = useState<{ values: AdminUserValues; message: string } | null>(null)
  const onUnauthorized = useAdminUnauthorizedOn(existing.error)
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<AdminUserValues>({ resolver: zodResolver(adminUserSchema), defaultValues: NEW_USER_DEFAULTS })

  // SPEC §4: the edit form loads the user and resets its fields from the response.
  useEffect(() => {
    if (userId === null) {
      reset(NEW_USER_DEFAULTS)
      return
    }
    const u = existing.data
    if (u) {
      reset({ nombre: u.nombre, email: u.email ?? '', origen: u.origen, vigencia: String(u.vigencia) as AdminUserValues['vigencia'] })
    }
  }, [userId, existing.data, reset])

  const onSubmit = async (values: AdminUserValues, confirmRevalidation = false) => {
    setAnnulling(null)
    try {
      const input = { nombre: values.nombre, email: values.email, origen: values.origen, vigencia: Number(values.vigencia) }
      const saved = await save.mutateAsync({ id: userId, input: confirmRevalidation ? { ...input, confirmRevalidation } : input })
      if (userId === null) {
        toast({ title: 'Usuario creado', description: `ID Validado: ${saved.id_validado}` })
      } else {
        toast({ title: 'Usuario actualizado', description: 'Los datos del usuario se guardaron correctamente' })
      }
      onDone()
    } catch (err) {
      if (onUnauthorized(err)) return
      const fields = errorBody(err)?.errors as Record<string, unknown> | undefined
      if (fields && 'confirmRevalidation' in fields) {
        setAnnulling({ values, message: serverMessage(err, 'Cambiar el nombre anula la validación biométrica de esta persona.') })
        return
      }
      toast({ title: 'Error', description: serverMessage(err, err instanceof Error ? err.message : 'Error'), variant: 'destructive' })
    }
  }

  if (userId !== null && existing.isPending) {
    return (
      <div className="flex justify-center py-10">
        <span className="loading loading-spinner loading-md text-primary" role="status" aria-label="Cargando usuario" />
      </div>
    )
  }

  const showInvitation = existing.data?.origen === INVITATION_ORIGIN
  return (
    <>
      <form className="max-w-xl space-y-4" onSubmit={handleSubmit((values) => onSubmit(values))} noValidate>
        <Field label="Nombre" htmlFor="admin-nombre" error={errors.nombre?.message}>
          <Input id="admin-nombre" placeholder="Nombre completo" invalid={!!errors.nombre} {...register('nombre')} />
        </Field>
        <Field label="Email" htmlFor="admin-email" error={errors.email?.message}>
          <Input id="admin-email" type="email" placeholder="correo@ejemplo.com" invalid={!!errors.email} {...register('email')} />
        </Field>
        <Field label="Origen" htmlFor="admin-origen" error={errors.origen?.message}>
          <Select id="admin-origen" className="w-full" options={ORIGIN_OPTIONS} aria-invalid={!!errors.origen || undefined} {...register('origen')}>
            {showInvitation && <option value={INVITATION_ORIGIN}>{INVITATION_ORIGIN}</option>}
          </Select>
        </Field>
        <Field label="Vigencia" htmlFor="admin-vigencia" error={errors.vigencia?.message}>
          <Select
            id="admin-vigencia"
            className="w-full"
            options={VIGENCIA_OPTIONS}
            aria-invalid={!!errors.vigencia || undefined}
            {...register('vigencia')}
          />
        </Field>
        <div className="flex gap-2 pt-2">
          <Button type="submit" disabled={save.isPending} pending={save.isPending}>
            {userId === null ? 'Crear Usuario' : 'Guardar Cambios'}
          </Button>
          <Button variant="outline" onClick={onDone} disabled={save.isPending}>
            Cancelar
          </Button>
        </div>
      </form>
      <ConfirmDialog
        open={annulling !== null}
        pending={save.isPending}
        title="¿Cambiar el nombre de una persona validada?"
        confirmLabel="Sí, cambiar el nombre"
        onCancel={() => setAnnulling(null)}
        onConfirm={() => annulling && onSubmit(annulling.values, true)}
      >
        <p>{annulling?.message}</p>
        <p className="mt-2">Le avisaremos a la persona en su contacto anterior.</p>
      </ConfirmDialog>
    </>
  )
}
