import { useEffect, useRef, useState, type ReactNode } from 'react'
import { useNavigate } from 'react-router-dom'
import { Tag } from 'lucide-react'
import { AcceptanceNote } from '@/components/legal/legal-links'
import { Alert } from '@/components/ui/alert'
import { useToast } from '@/components/ui/toast'
import { ApiError, errorBody, serverMessage } from '@/lib/api-client'
import { formatPrice } from '@/lib/format'
import { PAID_PLANS, type PaidPlanCode } from '@/lib/plans'
import { announceLogin, readStorage, removeStorage, storageKeys, writeStorage } from '@/lib/storage'
import { useRegisterUser } from '../api/register'
import { verifiedUserId, useVerifyCode } from '../api/verify-code'
import { useWidgetLogin } from '../api/widget-login'
import type { RegisterValues } from '../schemas'
import { normalizeMexicanPhone } from '../typing'
import { AuthCard } from './auth-card'
import { RegisterCodeForm } from './register-code-form'
import { RegisterForm } from './register-form'
import { readFlow } from '@/lib/hosted-flow'

/** Delay before going to the profile after a verified registration (SPEC §9). */
export const REGISTER_REDIRECT_MS = 1500

/** How long the development-only code toast stays (SPEC §9). */
export const TEST_CODE_TOAST_MS = 10_000

const emptyValues: RegisterValues = { fullName: '', email: '', phoneNumber: '' }

/**
 * Registration (SPEC §2, §4): details, then the WhatsApp code. plan is the paid plan chosen on
 * the landing page: sent with the details (the server keeps it) and, with showPlan, named above the form.
 * notice is the simplified privacy notice, shown under the form (the route supplies it).
 */
export function RegisterScreen({
  plan = null,
  showPlan = true,
  notice,
}: {
  plan?: PaidPlanCode | null
  showPlan?: boolean
  notice?: ReactNode
}) {
  const navigate = useNavigate()
  const { toast } = useToast()
  const [step, setStep] = useState<'register' | 'verify'>('register')
  const [values, setValues] = useState<RegisterValues>(emptyValues)
  const [normalizedPhone, setNormalizedPhone] = useState('')
  const registerUser = useRegisterUser()
  const widgetLogin = useWidgetLogin()
  const verify = useVerifyCode()
  const redirectTimer = useRef<number>(undefined)

  useEffect(() => () => window.clearTimeout(redirectTimer.current), [])

  const showTestCode = (code: string | undefined) => {
    if (code) toast({ title: 'Código para pruebas', description: code, duration: TEST_CODE_TOAST_MS })
  }

  const requestNewCode = async (email: string, phoneNumber: string) => {
    try {
      const res = await widgetLogin.mutateAsync({ email, phoneNumber })
      if (!res.success || !res.sessionToken) throw new Error('no session token')
      writeStorage(storageKeys.registerTempId, res.sessionToken)
      toast({ title: 'Código enviado', description: 'Se envió un nuevo código de verificación a tu WhatsApp.' })
      setStep('verify')
    } catch {
      toast({ title: 'Error', description: 'No se pudo enviar el código. Intenta nuevamente.', variant: 'destructive' })
    }
  }

  const submitDetails = async (form: RegisterValues) => {
    setValues(form)
    const phoneNumber = normalizeMexicanPhone(form.phoneNumber)
    setNormalizedPhone(phoneNumber)
    const payload = { fullName: form.fullName.trim(), email: form.email.trim(), phoneNumber, ...(plan ? { plan } : {}) }
    try {
      const res = await registerUser.mutateAsync(payload)
      if (res.sessionToken) writeStorage(storageKeys.registerTempId, res.sessionToken)
      toast({ title: 'Código enviado', description: 'Te hemos enviado un código de verificación por WhatsApp.' })
      showTestCode(res.verificationCode ?? undefined)
      setStep('verify')
    } catch (err) {
      const existingUserId = errorBody(err)?.existingUserId
      if (err instanceof ApiError && err.status === 409 && existingUserId !== undefined && existingUserId !== null) {
        // Already registered: keep the known id as the temp id and ask for a new code (SPEC §4).
        writeStorage(storageKeys.registerTempId, String(existingUserId))
        await requestNewCode(payload.email, payload.phoneNumber)
        return
      }
      toast({ title: 'Error', description: serverMessage(err, 'Error al registrar usuario'), variant: 'destructive' })
    }
  }

  const submitCode = async (code: string) => {
    const sessionToken = readStorage(storageKeys.registerTempId)
    if (!sessionToken) {
      toast({
        title: 'Error de Verificación',
        description: 'No se encontró el sessionToken. Por favor inicia el registro nuevamente.',
        variant: 'destructive',
      })
      return
    }
    try {
      const res = await verify.mutateAsync({ sessionToken, code })
      const userId = verifiedUserId(res)
      if (!userId) throw new ApiError(400, 'Bad Request', JSON.stringify({ message: res?.message ?? '' }))
      removeStorage(storageKeys.registerTempId)
      writeStorage(storageKeys.userId, userId)
      announceLogin()
      // Level 1: the phone is verified. "Tu identidad ha sido verificada" waits for the biometric check.
      toast({ title: 'Teléfono verificado', description: 'Tu número de WhatsApp quedó verificado (Nivel 1).' })
      redirectTimer.current = window.setTimeout(() => navigate(readFlow() ? '/conectar' : '/profile'), REGISTER_REDIRECT_MS)
    } catch (err) {
      const description =
        err instanceof ApiError ? serverMessage(err, 'Código de verificación incorrecto') : 'Error en la verificación del código'
      toast({ title: 'Error de Verificación', description, variant: 'destructive' })
    }
  }

  return (
    <AuthCard
      title="Registro"
      subtitle={step === 'register' ? 'Registra tus datos' : 'Verifica tu número de WhatsApp'}
      // The legal pages open in a new tab (AcceptanceNote): the same tab would lose the half-filled form.
      footer={
        <div className="space-y-3">
          {notice}
          <AcceptanceNote lead="Al registrarte" />
        </div>
      }
    >
      <ul className="steps w-full text-xs" aria-label="Pasos del registro">
        <li className="step step-primary">Tus datos</li>
        <li className={step === 'verify' ? 'step step-primary' : 'step'}>Código de WhatsApp</li>
      </ul>
      {step === 'register' && plan && showPlan && <ChosenPlan plan={plan} />}
      {step === 'register' ? (
        <RegisterForm defaultValues={values} pending={registerUser.isPending || widgetLogin.isPending} onSubmit={submitDetails} />
      ) : (
        <RegisterCodeForm
          phoneNumber={normalizedPhone}
          pending={verify.isPending || verify.isSuccess}
          onSubmit={submitCode}
          onBack={() => setStep('register')}
        />
      )}
    </AuthCard>
  )
}

/** The plan chosen on the landing page, named above the form. */
function ChosenPlan({ plan }: { plan: PaidPlanCode }) {
  const { name, price } = PAID_PLANS[plan]
  return (
    <Alert variant="info" icon={<Tag className="size-4" aria-hidden />} className="py-2" data-testid="chosen-plan">
      Plan elegido: {name} — {formatPrice(price)}
    </Alert>
  )
}
