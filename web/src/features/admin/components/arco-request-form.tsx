import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Button } from '@/components/ui/button'
import { Field, Input, Select } from '@/components/ui/input'
import { useToast } from '@/components/ui/toast'
import { errorBody, serverMessage } from '@/lib/api-client'
import { ARCO_TYPE_LABEL, type ArcoType } from '@/lib/arco'
import { useCreateArcoRequest } from '../api/create-arco-request'
import { arcoRequestSchema, type ArcoRequestValues } from '../schemas'

const EMPTY: ArcoRequestValues = { profileId: '', type: 'acceso', details: '' }

const FIELDS = ['profileId', 'type', 'details'] as const

const TYPE_OPTIONS = (Object.keys(ARCO_TYPE_LABEL) as ArcoType[]).map((t) => ({ value: t, label: ARCO_TYPE_LABEL[t] }))

/** "Registrar solicitud recibida por correo": puts an e-mailed ARCO request in the queue, with its deadline. */
export function ArcoRequestForm({ onUnauthorized }: { onUnauthorized: (err: unknown) => boolean }) {
  const create = useCreateArcoRequest()
  const { toast } = useToast()
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<ArcoRequestValues>({ resolver: zodResolver(arcoRequestSchema), defaultValues: EMPTY })

  const onSubmit = (values: ArcoRequestValues) =>
    create.mutate(values, {
      onSuccess: (r) => {
        toast({ title: 'Solicitud registrada', description: `${ARCO_TYPE_LABEL[r.type] ?? 'Solicitud'} de ${r.profileId ?? values.profileId}.` })
        reset(EMPTY)
      },
      onError: (err) => {
        if (onUnauthorized(err)) return
        // A 400 names the fields it refused; put each message under its field.
        const fieldErrors = errorBody(err)?.errors
        let placed = false
        if (fieldErrors && typeof fieldErrors === 'object') {
          for (const field of FIELDS) {
            const message = (fieldErrors as Record<string, unknown>)[field]
            if (typeof message === 'string') {
              setError(field, { message })
              placed = true
            }
          }
        }
        if (!placed) toast({ title: 'Error', description: serverMessage(err, 'No se pudo registrar la solicitud.'), variant: 'destructive' })
      },
    })

  return (
    <form className="grid gap-4 sm:grid-cols-2" onSubmit={handleSubmit(onSubmit)} noValidate aria-labelledby="arco-form-title">
      <h3 id="arco-form-title" className="text-lg font-semibold sm:col-span-2">
        Registrar solicitud recibida por correo
      </h3>
      <Field label="ID de perfil" htmlFor="arco-profile-id" error={errors.profileId?.message}>
        <Input id="arco-profile-id" placeholder="PS-1234-5678-90" className="font-mono" invalid={!!errors.profileId} {...register('profileId')} />
      </Field>
      <Field label="Tipo de solicitud" htmlFor="arco-type" error={errors.type?.message}>
        <Select id="arco-type" className={`w-full ${errors.type ? 'select-error' : ''}`} options={TYPE_OPTIONS} {...register('type')} />
      </Field>
      <div className="sm:col-span-2">
        <Field label="Detalle" htmlFor="arco-details" error={errors.details?.message} hint="Qué pide la persona, como lo escribió en su correo.">
          <textarea
            id="arco-details"
            rows={3}
            className={`textarea w-full ${errors.details ? 'textarea-error' : ''}`}
            {...register('details')}
          />
        </Field>
      </div>
      <div className="sm:col-span-2">
        <Button type="submit" disabled={create.isPending} pending={create.isPending}>
          Registrar solicitud
        </Button>
      </div>
    </form>
  )
}
