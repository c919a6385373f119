import { Globe } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Field, Input } from '@/components/ui/input'
import { useToast } from '@/components/ui/toast'
import { errorBody, serverMessage } from '@/lib/api-client'
import { useConsoleSignedOut } from '../api/get-console-me'
import { useSetOrigin } from '../api/origin'
import { can } from '../labels'
import { originSchema } from '../schemas'
import type { ConsoleMe } from '../types'
import { OriginProofPanel } from './origin-proof'
import { useSavedValueForm } from './use-saved-value-form'

/** The platform's allowed origin: shown to everyone, changed by a propietario or a desarrollador. */
export function OriginCard({ me }: { me: ConsoleMe }) {
  const setOrigin = useSetOrigin()
  const { toast } = useToast()
  const signedOut = useConsoleSignedOut()
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isDirty },
  } = useSavedValueForm(originSchema, 'origin', me.partner.domain)

  const onSubmit = ({ origin }: { origin: string }) =>
    setOrigin.mutate(origin, {
      onSuccess: (res) => toast({ title: 'Origen guardado', description: res.message }),
      onError: (err) => {
        if (signedOut(err)) return
        const field = (errorBody(err)?.errors as Record<string, string> | undefined)?.origin
        setError('origin', { message: field ?? serverMessage(err, 'No se pudo guardar el origen.') })
      },
    })

  return (
    <section className="rounded-box border border-base-300 p-4" aria-labelledby="origin-title">
      <div className="flex items-start gap-3">
        <Globe className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
        <div className="min-w-0 flex-1 space-y-3">
          <div>
            <h2 id="origin-title" className="font-semibold">
              Origen permitido
            </h2>
            <p className="text-sm text-base-content/70">
              El widget y tus llaves publicables solo funcionan en páginas de este origen (esquema, dominio y puerto). Vale para prueba y
              producción.
            </p>
          </div>
          {can(me, 'origin') ? (
            <form className="flex flex-col gap-3 sm:flex-row sm:items-start" onSubmit={handleSubmit(onSubmit)} noValidate>
              <div className="flex-1">
                <Field label="Origen" htmlFor="console-origin" error={errors.origin?.message}>
                  <Input id="console-origin" placeholder="https://www.casalista.mx" invalid={!!errors.origin} {...register('origin')} />
                </Field>
              </div>
              <Button type="submit" className="sm:mt-7" disabled={!isDirty || setOrigin.isPending} pending={setOrigin.isPending}>
                Guardar origen
              </Button>
            </form>
          ) : (
            <code className="block font-mono text-sm break-all" data-testid="console-origin">
              {me.partner.domain}
            </code>
          )}
          <OriginProofPanel me={me} />
        </div>
      </div>
    </section>
  )
}
