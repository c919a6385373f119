import { useState, type ReactNode } from 'react'
import { ShieldCheck } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { CodeInput } from '@/components/ui/code-input'
import { Field } from '@/components/ui/input'
import { useToast } from '@/components/ui/toast'
import { serverMessage } from '@/lib/api-client'
import { useConfirmIdentity } from '@/api/confirm-identity'
import { useConfirmWithPasskey } from '@/api/confirm-with-passkey'
import { useSendConfirmationCodeVia, type ConfirmationVia } from '@/api/send-confirmation-code'
import { codeSubmit } from '@/lib/code-submit'

/** How long the development-only code toast stays (as in the registration). */
const TEST_CODE_TOAST_MS = 10_000

/**
 * Confirms that the person is who holds the account before a sensitive change (a contact change,
 * a new passkey): a code sent to the current phone (or e-mail), or one of their passkeys
 * (withPasskey false: they have none yet, so only the code). onConfirmed gets until when the
 * server allows the change (5 minutes). idPrefix keeps the code field's id unique on the page.
 */
export function IdentityConfirmation({
  userId,
  idPrefix,
  children,
  error: outerError,
  withPasskey = true,
  onConfirmed,
}: {
  userId: string
  idPrefix: string
  children: ReactNode
  error?: string
  withPasskey?: boolean
  onConfirmed: (until: string) => void
}) {
  const sendCode = useSendConfirmationCodeVia()
  const confirm = useConfirmIdentity()
  const byPasskey = useConfirmWithPasskey()
  const { toast } = useToast()
  const [sent, setSent] = useState<{ message: string; channel?: string }>()
  const [code, setCode] = useState('')
  const [error, setError] = useState<string>()
  const shown = error ?? outerError

  const requestCode = (via?: ConfirmationVia) => {
    setError(undefined)
    sendCode.mutate(
      { userId, via },
      {
        onSuccess: (res) => {
          setCode('')
          setSent({ message: res.message, channel: res.channel })
          if (res.verificationCode) toast({ title: 'Código para pruebas', description: res.verificationCode, duration: TEST_CODE_TOAST_MS })
        },
        onError: (err) => setError(serverMessage(err, 'No pudimos enviar el código. Intenta de nuevo.')),
      },
    )
  }

  const confirmByPasskey = () => {
    setError(undefined)
    byPasskey.mutate(userId, {
      onSuccess: (res) => onConfirmed(res.confirmedUntil),
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
        onSuccess: (res) => onConfirmed(res.confirmedUntil),
        onError: (err) => setError(serverMessage(err, 'Código de verificación incorrecto')),
      },
    ),
  )

  const codeId = `${idPrefix}-confirm-code`
  return (
    <div className="space-y-3" data-testid={`${idPrefix}-confirmation`}>
      <Alert variant="info" icon={<ShieldCheck className="size-5" aria-hidden />}>
        {children}
      </Alert>
      {shown && <Alert variant="destructive">{shown}</Alert>}
      {sent ? (
        <form className="space-y-3" onSubmit={submitCode} noValidate>
          <p>{sent.message}</p>
          <Field label="Código de confirmación" htmlFor={codeId}>
            <CodeInput id={codeId} value={code} onChange={setCode} disabled={confirm.isPending} />
          </Field>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={code.length !== 6 || confirm.isPending} pending={confirm.isPending}>
              Confirmar código
            </Button>
            <Button variant="ghost" onClick={() => requestCode()} disabled={sendCode.isPending || confirm.isPending}>
              Enviar otro código
            </Button>
            {sent.channel === 'phone' && (
              <Button variant="ghost" onClick={() => requestCode('email')} disabled={sendCode.isPending || confirm.isPending}>
                Ya no tengo ese teléfono: enviarlo a mi correo
              </Button>
            )}
          </div>
        </form>
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => requestCode()} disabled={sendCode.isPending} pending={sendCode.isPending}>
            Enviar código a mi contacto actual
          </Button>
          {withPasskey && (
            <Button variant="ghost" onClick={confirmByPasskey} disabled={byPasskey.isPending} pending={byPasskey.isPending}>
              Confirmar con mi llave de acceso
            </Button>
          )}
        </div>
      )}
    </div>
  )
}
