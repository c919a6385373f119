import { useState } from 'react'
import { CircleAlert, KeyRound, Pencil, Trash2 } from 'lucide-react'
import { browserSupportsWebAuthn } from '@simplewebauthn/browser'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardDescription, CardTitle } from '@/components/ui/card'
import { IdentityConfirmation } from '@/components/identity-confirmation'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Field, Input } from '@/components/ui/input'
import { useToast } from '@/components/ui/toast'
import { ApiError } from '@/lib/api-client'
import { formatDateTimeMx } from '@/lib/format'
import { isPasskeyCancelled } from '@/lib/passkey-errors'
import { useCreatePasskey } from '../api/create-passkey'
import { useDeletePasskey } from '../api/delete-passkey'
import { usePasskeys, type Passkey } from '../api/get-passkeys'
import { useRenamePasskey } from '../api/rename-passkey'
import { passkeyErrorMessage } from '../lib/passkey-errors'

/** "Llaves de acceso" in Mi Perfil: create, list, rename and delete the person's passkeys. */
export function PasskeysCard({ userId }: { userId: string }) {
  const { toast } = useToast()
  const passkeys = usePasskeys(userId)
  const create = useCreatePasskey(userId)
  const [removing, setRemoving] = useState<Passkey | null>(null)
  // Adding a passkey needs a confirmation from the current contact (or a passkey) of the last
  // 5 minutes: a session alone cannot add what then signs in and confirms contact changes.
  const [confirming, setConfirming] = useState(false)
  const [confirmedUntil, setConfirmedUntil] = useState<number>()
  const remove = useDeletePasskey(userId)
  const supported = browserSupportsWebAuthn()

  const onCreate = () => {
    if (!confirmedUntil || Date.now() >= confirmedUntil) {
      setConfirming(true)
      return
    }
    createPasskey()
  }

  const createPasskey = () =>
    create.mutate(undefined, {
      onSuccess: (p) => toast({ title: 'Llave de acceso creada', description: `Ya puedes entrar con "${p.name}" sin código.` }),
      onError: (err) => {
        // The confirmation lapsed meanwhile: ask for it again.
        if (err instanceof ApiError && err.status === 403) setConfirmedUntil(undefined)
        toast({
          title: isPasskeyCancelled(err) ? 'Llave de acceso cancelada' : 'No se creó la llave de acceso',
          description: passkeyErrorMessage(err, 'No pudimos crear la llave de acceso. Intenta de nuevo.'),
          variant: isPasskeyCancelled(err) ? undefined : 'destructive',
        })
      },
    })

  const onDelete = () => {
    if (!removing) return
    remove.mutate(removing.id, {
      onSuccess: () => {
        toast({ title: 'Llave de acceso eliminada', description: `"${removing.name}" ya no sirve para entrar.` })
        setRemoving(null)
      },
      onError: (err) => {
        toast({ title: 'Error', description: passkeyErrorMessage(err, 'No pudimos eliminar la llave. Intenta de nuevo.'), variant: 'destructive' })
        setRemoving(null)
      },
    })
  }

  const list = passkeys.data ?? []
  // 503: this deployment's address cannot be a WebAuthn relying party (an IP address).
  const unavailable = passkeys.error instanceof ApiError && passkeys.error.status === 503
  return (
    <Card data-testid="passkeys-card">
      <CardBody className="gap-4">
        <div className="flex items-start gap-3">
          <KeyRound className="mt-1 size-6 shrink-0 text-primary" aria-hidden />
          <div>
            <CardTitle>Llaves de acceso</CardTitle>
            <CardDescription>
              Entra con tu huella, tu rostro o el bloqueo de tu teléfono, sin esperar un código. Si pierdes tus llaves, tu código
              sigue funcionando.
            </CardDescription>
          </div>
        </div>
        {passkeys.isError && (
          // Plain text beside a red icon: daisyUI's error red is too light for text (axe color-contrast).
          <p className="flex items-center gap-2 text-sm" role="status">
            <CircleAlert className="size-4 shrink-0 text-error" aria-hidden />
            {unavailable
              ? 'Las llaves de acceso no están disponibles en esta dirección del servicio. Entra con tu código.'
              : 'No pudimos cargar tus llaves de acceso.'}
          </p>
        )}
        {list.length > 0 && (
          <ul className="divide-y divide-base-300" aria-label="Mis llaves de acceso">
            {list.map((p) => (
              <PasskeyRow key={p.id} userId={userId} passkey={p} onDelete={() => setRemoving(p)} />
            ))}
          </ul>
        )}
        {passkeys.isSuccess && list.length === 0 && <p className="text-sm text-base-content/70">Aún no tienes llaves de acceso.</p>}
        {confirming && (
          <IdentityConfirmation
            userId={userId}
            idPrefix="passkey"
            withPasskey={list.length > 0}
            onConfirmed={(until) => {
              setConfirmedUntil(new Date(until).getTime())
              setConfirming(false)
              createPasskey()
            }}
          >
            Para crear una llave de acceso, primero confirma que eres tú: con un código a tu contacto actual
            {list.length > 0 ? ' o con una llave que ya tengas' : ''}.
          </IdentityConfirmation>
        )}
        {unavailable || confirming ? null : supported ? (
          <Button onClick={onCreate} disabled={create.isPending} className="self-start">
            {create.isPending ? <span className="loading loading-spinner loading-sm" /> : <KeyRound className="size-4" aria-hidden />}
            Crear llave de acceso
          </Button>
        ) : (
          <p className="text-sm text-base-content/70">Este navegador no permite llaves de acceso.</p>
        )}
      </CardBody>
      <ConfirmDialog
        open={removing !== null}
        title="¿Eliminar esta llave de acceso?"
        confirmLabel="Eliminar"
        pending={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={onDelete}
      >
        <p>
          "{removing?.name}" dejará de servir para entrar a Perfil Seguro. Bórrala también de tu dispositivo o de tu gestor de
          contraseñas.
        </p>
      </ConfirmDialog>
    </Card>
  )
}

/** One passkey: its name (renamable), dates and where it lives. */
function PasskeyRow({ userId, passkey, onDelete }: { userId: string; passkey: Passkey; onDelete: () => void }) {
  const { toast } = useToast()
  const rename = useRenamePasskey(userId)
  const [editing, setEditing] = useState(false)
  const [name, setName] = useState(passkey.name)
  const [error, setError] = useState<string | undefined>()
  const inputId = `passkey-name-${passkey.id}`

  const save = () => {
    const clean = name.trim()
    if (clean.length < 1 || clean.length > 60) {
      setError('El nombre debe tener entre 1 y 60 caracteres.')
      return
    }
    rename.mutate(
      { id: passkey.id, name: clean },
      {
        onSuccess: () => {
          setEditing(false)
          setError(undefined)
          toast({ title: 'Nombre guardado' })
        },
        onError: (err) => setError(passkeyErrorMessage(err, 'No pudimos cambiar el nombre.')),
      },
    )
  }

  return (
    <li className="flex flex-col gap-2 py-3" data-testid="passkey-row">
      {editing ? (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault()
            save()
          }}
        >
          <div className="grow">
            <Field label="Nombre de la llave" htmlFor={inputId} error={error}>
              <Input id={inputId} value={name} maxLength={60} invalid={!!error} onChange={(e) => setName(e.target.value)} autoFocus />
            </Field>
          </div>
          <Button type="submit" size="sm" disabled={rename.isPending}>
            Guardar
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              setEditing(false)
              setName(passkey.name)
              setError(undefined)
            }}
          >
            Cancelar
          </Button>
        </form>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{passkey.name}</span>
          <Badge variant={passkey.synced ? 'secondary' : 'outline'}>{passkey.synced ? 'Sincronizada' : 'En este dispositivo'}</Badge>
          {passkey.blocked && <Badge variant="destructive">Bloqueada</Badge>}
          <span className="ml-auto flex gap-1">
            <Button size="sm" variant="ghost" onClick={() => setEditing(true)} aria-label={`Cambiar nombre de ${passkey.name}`}>
              <Pencil className="size-4" aria-hidden />
            </Button>
            <Button size="sm" variant="ghost" onClick={onDelete} aria-label={`Eliminar ${passkey.name}`}>
              <Trash2 className="size-4 text-error" aria-hidden />
            </Button>
          </span>
        </div>
      )}
      <p className="text-xs text-base-content/70">
        Creada el {formatDateTimeMx(passkey.createdAt)} ·{' '}
        {passkey.lastUsedAt ? `Último uso: ${formatDateTimeMx(passkey.lastUsedAt)}` : 'Aún no la usas para entrar'}
      </p>
      {passkey.blocked && (
        <p className="text-xs text-error">Bloqueamos esta llave porque parece copiada. Elimínala y crea una nueva.</p>
      )}
    </li>
  )
}
