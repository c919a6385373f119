import { useState, type FormEvent } from 'react'
import { PenLine } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { CodeInput } from '@/components/ui/code-input'
import { Field } from '@/components/ui/input'
import { useToast } from '@/components/ui/toast'
import { serverMessage } from '@/lib/api-client'
import { codeSchema } from '@/lib/code-submit'
import { sendConfirmationCode } from '@/api/send-confirmation-code'
import {
  signAmlDeclarationWithCode,
  signAmlDeclarationWithPasskey,
  type AmlDeclarationState,
  type AmlDraft,
  type AmlSigned,
  type AmlText,
} from '../api/aml-declaration'
import { DeclarationForm } from './declaration-form'

// Answer → review the exact text → sign it with a code sent to the person's contact or with a
// passkey (the same confirmation as Mi Perfil's sensitive changes, bound to the text).

/** How long the development-only code toast stays. */
const TEST_CODE_TOAST_MS = 10_000

/** The text and its signature. */
export function DeclarationSigner({
  userId,
  draft,
  text,
  onSigned,
  onBack,
}: {
  userId: string
  draft: AmlDraft
  text: AmlText
  onSigned: (signed: AmlSigned) => void
  onBack: () => void
}) {
  const { toast } = useToast()
  const [sent, setSent] = useState('')
  const [code, setCode] = useState('')
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const act = async (action: () => Promise<void>, fallback: string) => {
    setBusy(true)
    setError('')
    try {
      await action()
    } catch (err) {
      setError(
        err instanceof Error && (err.name === 'NotAllowedError' || err.name === 'AbortError')
          ? 'Cancelaste la llave de acceso. Puedes intentarlo de nuevo o firmar con un código.'
          : serverMessage(err, fallback),
      )
    } finally {
      setBusy(false)
    }
  }
  const requestCode = () =>
    act(async () => {
      const res = await sendConfirmationCode(userId)
      setCode('')
      setSent(res.message)
      if (res.verificationCode) toast({ title: 'Código para pruebas', description: res.verificationCode, duration: TEST_CODE_TOAST_MS })
    }, 'No pudimos enviar el código. Intenta de nuevo.')
  const submitCode = (e: FormEvent) => {
    e.preventDefault()
    const parsed = codeSchema.safeParse(code)
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'El código debe tener 6 dígitos')
      return
    }
    void act(async () => onSigned(await signAmlDeclarationWithCode(userId, draft, text.textSha256, parsed.data)), 'No pudimos firmar tu declaración.')
  }
  const byPasskey = () =>
    act(async () => onSigned(await signAmlDeclarationWithPasskey(userId, draft, text.textSha256)), 'No pudimos firmar con tu llave de acceso. Firma con un código.')

  return (
    <div className="space-y-3" data-testid="aml-review">
      <h4 className="font-semibold">Revisa tu declaración</h4>
      <blockquote className="whitespace-pre-line rounded-box border border-base-300 bg-base-200 p-3 text-sm" data-testid="aml-text">
        {text.text}
      </blockquote>
      <p className="text-sm text-base-content/70">
        Al firmar, guardamos este texto exacto, la fecha y cómo lo firmaste. Si algo cambia después, puedes corregirla desde Mi Perfil.
      </p>
      {error && <Alert variant="destructive">{error}</Alert>}
      {sent ? (
        <form className="space-y-3" onSubmit={submitCode} noValidate>
          <p>{sent}</p>
          <Field label="Código para firmar" htmlFor="aml-sign-code">
            <CodeInput id="aml-sign-code" value={code} onChange={setCode} disabled={busy} />
          </Field>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={code.length !== 6 || busy} pending={busy}>
              <PenLine className="size-4" aria-hidden /> Firmar declaración
            </Button>
            <Button variant="ghost" onClick={() => void requestCode()} disabled={busy}>Enviar otro código</Button>
          </div>
        </form>
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => void requestCode()} disabled={busy} pending={busy}>Firmar con un código</Button>
          <Button variant="outline" onClick={() => void byPasskey()} disabled={busy}>Firmar con mi llave de acceso</Button>
          <Button variant="ghost" onClick={onBack} disabled={busy}>Cambiar mis respuestas</Button>
        </div>
      )}
    </div>
  )
}

/** The whole declaration: the form (pre-filled), its review and its signature. */
export function DeclarationFlow({
  userId,
  state,
  onSigned,
  onCancel,
}: {
  userId: string
  state: Pick<AmlDeclarationState, 'current' | 'prefill'>
  onSigned: (signed: AmlSigned) => void
  onCancel?: () => void
}) {
  const [reviewed, setReviewed] = useState<{ draft: AmlDraft; text: AmlText }>()
  // The form keeps what was typed when the person goes back from the review.
  const [draftState, setDraftState] = useState(state)
  if (reviewed) {
    return (
      <DeclarationSigner
        userId={userId}
        draft={reviewed.draft}
        text={reviewed.text}
        onSigned={onSigned}
        onBack={() => {
          setDraftState({ ...state, current: { ...(state.current ?? { version: 0, signedAt: '', method: 'codigo', textSha256: '', text: '' }), answers: reviewed.draft.answers } })
          setReviewed(undefined)
        }}
      />
    )
  }
  return <DeclarationForm userId={userId} state={draftState} onReviewed={(draft, text) => setReviewed({ draft, text })} onCancel={onCancel} />
}
