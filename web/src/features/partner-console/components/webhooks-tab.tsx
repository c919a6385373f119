import { useState } from 'react'
import { RefreshCw, Webhook as WebhookIcon } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Field, Input } from '@/components/ui/input'
import { useToast } from '@/components/ui/toast'
import { errorBody, serverMessage } from '@/lib/api-client'
import { formatDateTimeMx } from '@/lib/format'
import { useConsoleSignedOut, useSignedOutOn } from '../api/get-console-me'
import { useWebhook, useWebhookMutations } from '../api/webhook'
import { can } from '../labels'
import { webhookSchema } from '../schemas'
import type { ConsoleMe, Webhook } from '../types'
import { QueryErrorAlert } from './query-error'
import { SecretDialog, type ShownSecret } from './secret-dialog'
import { TabHeading } from './tab-heading'
import { useSavedValueForm } from './use-saved-value-form'

const SECRET_WARNING = 'Guárdalo ahora: no volverás a verlo.'

/** "Webhooks": where the platform is notified, and the signing secret's rotation with a 24-hour overlap. */
export function WebhooksTab({ me }: { me: ConsoleMe }) {
  const webhook = useWebhook()
  useSignedOutOn(webhook.error)
  if (webhook.isPending) {
    return <span className="loading loading-spinner loading-md text-primary" role="status" aria-label="Cargando" />
  }
  if (webhook.isError) {
    return <QueryErrorAlert title="No pudimos cargar tu webhook" query={webhook} />
  }
  return <WebhookSettings me={me} webhook={webhook.data} />
}

function WebhookSettings({ me, webhook }: { me: ConsoleMe; webhook: Webhook }) {
  const { setUrl, rotate } = useWebhookMutations()
  const { toast } = useToast()
  const signedOut = useConsoleSignedOut()
  const [shown, setShown] = useState<ShownSecret | null>(null)
  const [confirm, setConfirm] = useState<'rotate' | 'remove' | null>(null)
  const manage = can(me, 'webhook')
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isDirty },
  } = useSavedValueForm(webhookSchema, 'url', webhook.url)

  const fail = (err: unknown) => {
    if (signedOut(err)) return
    const field = (errorBody(err)?.errors as Record<string, string> | undefined)?.url
    if (field) setError('url', { message: field })
    else toast({ title: 'No se pudo', description: serverMessage(err, 'Intenta de nuevo.'), variant: 'destructive' })
  }

  const save = (url: string) =>
    setUrl.mutate(url, {
      onSuccess: (w) => {
        if (w.secret) setShown({ title: 'Secreto de firma de tu webhook', label: 'el secreto', value: w.secret, warning: SECRET_WARNING, note: NOTE })
        else toast({ title: url ? 'Webhook guardado' : 'Webhook quitado', description: w.message })
      },
      onError: fail,
      onSettled: () => setConfirm(null),
    })

  const doRotate = () =>
    rotate.mutate(undefined, {
      onSuccess: (w) =>
        setShown({
          title: 'Nuevo secreto de firma',
          label: 'el secreto',
          value: w.secret ?? '',
          warning: SECRET_WARNING,
          note: w.previousSecretUntil
            ? `El secreto anterior sigue firmando hasta el ${formatDateTimeMx(w.previousSecretUntil)} (hora de la Ciudad de México). Instala el nuevo en tu servidor antes de esa hora.`
            : NOTE,
        }),
      onError: fail,
      onSettled: () => setConfirm(null),
    })

  return (
    <div className="space-y-6">
      <section className="space-y-4" aria-labelledby="webhook-title">
        <div className="flex items-start gap-3">
          <WebhookIcon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
          <TabHeading id="webhook-title" title="URL del webhook">
            Te avisamos con un POST firmado de cada evento de tu plataforma; por ejemplo, cuando una sesión de verificación termina.
          </TabHeading>
        </div>
        {!webhook.url && <Alert variant="info">Sin webhook: no te enviaremos notificaciones.</Alert>}
        {manage ? (
          <form className="flex flex-col gap-3 sm:flex-row sm:items-start" onSubmit={handleSubmit(({ url }) => save(url))} noValidate>
            <div className="flex-1">
              <Field label="URL" htmlFor="console-webhook-url" error={errors.url?.message} hint="https://… de tu servidor">
                <Input id="console-webhook-url" type="url" placeholder="https://api.tuplataforma.mx/perfilseguro" invalid={!!errors.url} {...register('url')} />
              </Field>
            </div>
            <div className="flex gap-2 sm:mt-7">
              <Button type="submit" disabled={!isDirty || setUrl.isPending} pending={setUrl.isPending}>
                Guardar URL
              </Button>
              {webhook.url && (
                <Button variant="ghost" className="text-error" onClick={() => setConfirm('remove')}>
                  Quitar
                </Button>
              )}
            </div>
          </form>
        ) : (
          <code className="block font-mono text-sm break-all">{webhook.url || '—'}</code>
        )}
      </section>

      <section className="space-y-3 rounded-box border border-base-300 p-4" aria-labelledby="secret-title">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <h2 id="secret-title" className="font-semibold">
              Secreto de firma
            </h2>
            <div className="mt-1">
              {webhook.hasSecret ? <Badge variant="success" className="badge-sm">Configurado</Badge> : <Badge variant="outline" className="badge-sm">Sin secreto</Badge>}
            </div>
          </div>
          {manage && (
            <Button variant="outline" size="sm" onClick={() => setConfirm('rotate')} disabled={rotate.isPending}>
              <RefreshCw className="size-4" aria-hidden />
              {webhook.hasSecret ? 'Rotar secreto' : 'Crear secreto'}
            </Button>
          )}
        </div>
        {webhook.previousSecretUntil && (
          <Alert variant="warning" data-testid="secret-overlap">
            El secreto anterior sigue firmando hasta el {formatDateTimeMx(webhook.previousSecretUntil)} (hora de la Ciudad de México).
            Mientras tanto cada notificación lleva dos firmas v1.
          </Alert>
        )}
        <p className="text-sm text-base-content/70">
          Cada notificación lleva el encabezado <code className="font-mono">X-PerfilSeguro-Signature: t=…,v1=…</code>: el HMAC-SHA256 de
          «t.cuerpo» con tu secreto. Durante una rotación llegan dos entradas v1 (la nueva primero): acepta la notificación si cualquiera
          coincide y el tiempo t tiene menos de 5 minutos.
        </p>
      </section>

      <SecretDialog secret={shown} onClose={() => setShown(null)} />
      <ConfirmDialog
        open={confirm === 'rotate'}
        title={webhook.hasSecret ? '¿Rotar el secreto de firma?' : '¿Crear el secreto de firma?'}
        confirmLabel={webhook.hasSecret ? 'Rotar secreto' : 'Crear secreto'}
        confirmVariant="default"
        pending={rotate.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={doRotate}
      >
        {webhook.hasSecret
          ? 'Crearemos un secreto nuevo. El actual seguirá firmando 24 horas más, junto al nuevo, para que cambies tu servidor sin perder notificaciones.'
          : 'Crearemos el secreto con el que firmamos tus notificaciones.'}
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'remove'}
        title="¿Quitar el webhook?"
        confirmLabel="Quitar webhook"
        pending={setUrl.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() => save('')}
      >
        Dejaremos de enviarte notificaciones. El secreto de firma se conserva por si vuelves a configurar una URL.
      </ConfirmDialog>
    </div>
  )
}

const NOTE = 'Configúralo en tu servidor para comprobar la firma de cada notificación (encabezado X-PerfilSeguro-Signature).'
