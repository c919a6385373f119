import { useState } from 'react'
import { Trash2 } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { CodeInput } from '@/components/ui/code-input'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Field } from '@/components/ui/input'
import { useToast } from '@/components/ui/toast'
import { serverMessage } from '@/lib/api-client'
import { formatDateTimeMx } from '@/lib/format'
import { useForgetSession } from '@/lib/session'
import { useConfirmIdentity } from '@/api/confirm-identity'
import { useConfirmWithPasskey } from '@/api/confirm-with-passkey'
import { useDeleteAccount } from '../api/delete-account'
import { useSendConfirmationCode } from '@/api/send-confirmation-code'
import { codeSubmit } from '@/lib/code-submit'
import { TEST_CODE_TOAST_MS } from './contact-change-form'
import { MyDataSection } from './my-data-section'

type Step = { kind: 'start' } | { kind: 'code'; message: string } | { kind: 'confirmed'; until: string }

/**
 * "Eliminar mi cuenta" (cancelación): says what goes and what stays, asks for a code sent to the
 * person (a stolen session alone cannot delete the account), then deletes after one more
 * confirmation and forgets the session in this browser.
 */
export function DeleteAccountSection({ userId }: { userId: string }) {
  const sendCode = useSendConfirmationCode()
  const confirm = useConfirmIdentity()
  const byPasskey = useConfirmWithPasskey()
  const remove = useDeleteAccount()
  const forgetSession = useForgetSession()
  const { toast } = useToast()
  const [step, setStep] = useState<Step>({ kind: 'start' })
  const [code, setCode] = useState('')
  const [error, setError] = useState<string>()
  const [dialogOpen, setDialogOpen] = useState(false)

  const requestCode = () => {
    setError(undefined)
    sendCode.mutate(userId, {
      onSuccess: (res) => {
        setCode('')
        setStep({ kind: 'code', message: res.message })
        if (res.verificationCode) toast({ title: 'Código para pruebas', description: res.verificationCode, duration: TEST_CODE_TOAST_MS })
      },
      onError: (err) => setError(serverMessage(err, 'No pudimos enviar el código. Intenta de nuevo.')),
    })
  }

  // A passkey confirms as well as a code, without waiting for a message.
  const confirmByPasskey = () => {
    setError(undefined)
    byPasskey.mutate(userId, {
      onSuccess: (res) => setStep({ kind: 'confirmed', until: res.confirmedUntil }),
      onError: (err) =>
        setError(
          err instanceof Error && (err.name === 'NotAllowedError' || err.name === 'AbortError')
            ? 'Cancelaste la llave de acceso. Puedes intentarlo de nuevo o pedir un código.'
            : serverMessage(err, 'No pudimos confirmar con tu llave de acceso. Pide un código.'),
        ),
    })
  }

  const submitCode = codeSubmit(code, setError, (checked) =>
    confirm.mutate(
      { userId, code: checked },
      {
        onSuccess: (res) => {
          setError(undefined)
          setStep({ kind: 'confirmed', until: res.confirmedUntil })
        },
        onError: (err) => setError(serverMessage(err, 'Código de verificación incorrecto')),
      },
    ),
  )

  const deleteAccount = () =>
    remove.mutate(userId, {
      onSuccess: (res) => {
        setDialogOpen(false)
        forgetSession()
        toast({ title: 'Tu cuenta fue eliminada', description: res.message })
      },
      onError: (err) => {
        // Most likely the confirmation is older than 5 minutes: start over with a new code.
        setDialogOpen(false)
        setStep({ kind: 'start' })
        setError(serverMessage(err, 'No pudimos eliminar tu cuenta. Intenta de nuevo.'))
      },
    })

  return (
    <MyDataSection title="Eliminar mi cuenta" icon={Trash2} danger testId="delete-account">
      <div className="space-y-2 text-base-content/80">
        <p>
          <span className="font-medium text-base-content">Qué borramos:</span> tu perfil (nombre, correo y teléfono), tu validación
          biométrica, tu pase y tu credencial. Quien busque tu ID de perfil ya no encontrará tus datos.
        </p>
        <p>
          <span className="font-medium text-base-content">Qué guardamos:</span> los comprobantes de tus pagos (folio, monto y fecha)
          por 5 años, porque la ley fiscal lo exige. También el registro de tus consentimientos y solicitudes, bloqueado, por el
          plazo legal.
        </p>
        <p>No se puede deshacer. Para confirmar que eres tú, te enviamos un código.</p>
      </div>
      {error && <Alert variant="destructive">{error}</Alert>}
      {step.kind === 'start' && (
        <Button variant="outline" onClick={requestCode} disabled={sendCode.isPending} pending={sendCode.isPending}>
          Enviar código de confirmación
        </Button>
      )}
      {step.kind === 'start' && (
        <Button variant="ghost" onClick={confirmByPasskey} disabled={byPasskey.isPending} pending={byPasskey.isPending}>
          Confirmar con mi llave de acceso
        </Button>
      )}
      {step.kind === 'code' && (
        <form className="max-w-sm space-y-3" onSubmit={submitCode} noValidate>
          <p>{step.message}</p>
          <Field label="Código de confirmación" htmlFor="delete-code">
            <CodeInput id="delete-code" value={code} onChange={setCode} disabled={confirm.isPending} />
          </Field>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={code.length !== 6 || confirm.isPending} pending={confirm.isPending}>
              Confirmar código
            </Button>
            <Button variant="ghost" onClick={requestCode} disabled={sendCode.isPending || confirm.isPending}>
              Enviar otro código
            </Button>
          </div>
        </form>
      )}
      {step.kind === 'confirmed' && (
        <div className="space-y-3">
          <p>Código confirmado. Puedes eliminar tu cuenta hasta el {formatDateTimeMx(step.until)}.</p>
          <Button variant="destructive" onClick={() => setDialogOpen(true)} disabled={remove.isPending}>
            <Trash2 className="size-4" aria-hidden />
            Eliminar mi cuenta
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={dialogOpen}
        pending={remove.isPending}
        title="¿Eliminar tu cuenta?"
        confirmLabel="Sí, eliminar mi cuenta"
        onCancel={() => setDialogOpen(false)}
        onConfirm={deleteAccount}
      >
        <p>Borraremos tu perfil, tu validación, tu pase y tu credencial. No se puede deshacer.</p>
      </ConfirmDialog>
    </MyDataSection>
  )
}
