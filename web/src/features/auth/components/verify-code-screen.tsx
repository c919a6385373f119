import { useEffect, useRef, useState } from 'react'
import { Link, Navigate, useNavigate } from 'react-router-dom'
import { ArrowLeft } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/input'
import { useToast } from '@/components/ui/toast'
import { ApiError, serverMessage } from '@/lib/api-client'
import { announceLogin, readStorage, removeStorage, storageKeys, writeStorage } from '@/lib/storage'
import { toApiUserId } from '@/lib/user-id'
import { useVerifyCode, verifiedUserId } from '../api/verify-code'
import { loginCodeSchema } from '../schemas'
import { AuthCard } from './auth-card'
import { CodeInput } from '@/components/ui/code-input'
import { readFlow } from '@/lib/hosted-flow'

/** Sign-in code entry (SPEC §2 'Code verification'). */
export function VerifyCodeScreen() {
  const navigate = useNavigate()
  const { toast } = useToast()
  const verify = useVerifyCode()
  const [pendingUserId] = useState(() => readStorage(storageKeys.pendingUserId))
  const [code, setCode] = useState('')
  const expiredTimer = useRef<number>(undefined)

  useEffect(() => () => window.clearTimeout(expiredTimer.current), [])

  if (!pendingUserId) return <Navigate to="/login" replace />

  const complete = loginCodeSchema.safeParse({ code }).success
  // A phone gets the code by WhatsApp; an e-mail-only sign-in gets it at the address.
  const loginPhone = readStorage(storageKeys.loginPhone)
  const destination = loginPhone || readStorage(storageKeys.loginEmail)
  const channel = loginPhone ? 'por WhatsApp' : 'por correo electrónico'

  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    if (!complete) return
    // Both keys must exist (possibly empty): they prove this tab started the sign-in.
    if (readStorage(storageKeys.loginEmail) === null || readStorage(storageKeys.loginPhone) === null) {
      toast({ title: 'Error', description: 'Sesión expirada. Por favor inicia sesión nuevamente.', variant: 'destructive' })
      navigate('/login')
      return
    }
    try {
      const res = await verify.mutateAsync({ userId: toApiUserId(pendingUserId), code })
      const userId = verifiedUserId(res) ?? (res?.success || res?.verified ? pendingUserId : null)
      if (!userId) {
        toast({ title: 'Error', description: res?.message || 'Código incorrecto', variant: 'destructive' })
        return
      }
      writeStorage(storageKeys.userId, userId)
      removeStorage(storageKeys.pendingUserId, storageKeys.loginEmail, storageKeys.loginPhone)
      announceLogin()
      toast({ title: 'Sesión iniciada', description: 'Entraste a tu Perfil Seguro.' })
      navigate(readFlow() ? '/conectar' : '/profile')
    } catch (err) {
      const description = err instanceof ApiError ? serverMessage(err, 'Código incorrecto') : 'Código incorrecto'
      toast({ title: 'Error', description, variant: 'destructive' })
    }
  }

  return (
    <AuthCard
      title="Verificar Código"
      subtitle={
        destination ? (
          <>
            Ingresa el código de 6 dígitos que enviamos {channel} a <span className="font-semibold">{destination}</span>
          </>
        ) : (
          'Ingresa el código de 6 dígitos que enviamos por WhatsApp'
        )
      }
      footer={
        <Link to="/login" className="link link-hover inline-flex items-center gap-1">
          <ArrowLeft className="size-4" aria-hidden />
          Volver a iniciar sesión
        </Link>
      }
    >
      <form className="space-y-4" onSubmit={submit} noValidate>
        <Field
          label="Código de verificación"
          htmlFor="code"
          hint={complete ? undefined : 'Por favor ingresa el código de 6 dígitos'}
        >
          <CodeInput id="code" value={code} onChange={setCode} disabled={verify.isPending} />
        </Field>
        <Button type="submit" className="w-full" disabled={!complete || verify.isPending}>
          {verify.isPending && <span className="loading loading-spinner loading-sm" />}
          Verificar Código
        </Button>
      </form>
    </AuthCard>
  )
}
