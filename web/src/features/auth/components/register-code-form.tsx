import { useState } from 'react'
import { ArrowLeft } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/input'
import { authValidation } from '../validation'
import { CodeInput } from '@/components/ui/code-input'

/** Step 2 of registration: the 6-character WhatsApp code. */
export function RegisterCodeForm({
  phoneNumber,
  pending,
  onSubmit,
  onBack,
}: {
  phoneNumber: string
  pending: boolean
  onSubmit: (code: string) => void
  onBack: () => void
}) {
  const [code, setCode] = useState('')
  const [error, setError] = useState<string>()

  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    // The rules have loaded by now (the details form used them); after a reload on this step they
    // may not have, and the check waits for them.
    const { registrationCodeSchema } = authValidation.current() ?? (await authValidation.load())
    const parsed = registrationCodeSchema.safeParse({ code })
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message)
      return
    }
    setError(undefined)
    onSubmit(parsed.data.code)
  }

  return (
    <form className="space-y-4" onSubmit={submit} noValidate>
      <p className="text-center text-sm text-base-content/70">
        Escribe el código de 6 dígitos que enviamos por WhatsApp a <span className="font-semibold">{phoneNumber}</span>.
      </p>
      <Field label="Código de verificación" htmlFor="code" error={error}>
        <CodeInput id="code" value={code} onChange={setCode} disabled={pending} />
      </Field>
      <Button type="submit" className="w-full" disabled={code.length !== 6 || pending}>
        {pending && <span className="loading loading-spinner loading-sm" />}
        {pending ? 'Verificando...' : 'Verificar código'}
      </Button>
      <Button variant="ghost" className="w-full" onClick={onBack} disabled={pending}>
        <ArrowLeft className="size-4" aria-hidden />
        Volver al registro
      </Button>
    </form>
  )
}
