import { useEffect } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router-dom'
import { CircleCheck, Clock, ShieldAlert } from 'lucide-react'
import { buttonClass } from '@/components/ui/button'
import { Card, CardBody } from '@/components/ui/card'
import { announceLogin, storageKeys, writeStorage } from '@/lib/storage'

/** How long /return shows before going to the profile (SPEC §9: 2 s). */
export const RETURN_REDIRECT_MS = 2000

/** What the provider's status means to the user. */
function outcome(status: string | null) {
  switch ((status ?? '').toLowerCase()) {
    case 'approved':
      // The provider approved the check; what it certifies depends on the ID it read (issue 52):
      // the profile says whether the name matched.
      return {
        icon: CircleCheck,
        tone: 'text-success',
        title: 'Verificación recibida',
        text: 'Estamos comparando los datos de tu identificación con tu registro. Verás el resultado en tu perfil.',
      }
    case 'declined':
      return {
        icon: ShieldAlert,
        tone: 'text-error',
        title: 'No pudimos validar tu identidad',
        text: 'Revisa las recomendaciones en tu perfil e inténtalo de nuevo.',
      }
    default:
      return { icon: Clock, tone: 'text-info', title: 'Verificación en proceso', text: 'Estamos revisando tu información. Te avisaremos en tu perfil.' }
  }
}

/** Return from the external verification (SPEC §2 '/return'): stores userId and goes to /profile after 2 s. */
export function ReturnScreen() {
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const userId = params.get('userId')
  const { icon: Icon, tone, title, text } = outcome(params.get('status'))

  useEffect(() => {
    if (!userId) return
    writeStorage(storageKeys.userId, userId)
    announceLogin()
    const timer = window.setTimeout(() => navigate('/profile', { replace: true }), RETURN_REDIRECT_MS)
    return () => window.clearTimeout(timer)
  }, [userId, navigate])

  return (
    <div className="flex min-h-[60vh] items-center justify-center px-4 py-16">
      <Card className="w-full max-w-md text-center">
        <CardBody className="items-center">
          <Icon className={`size-14 ${tone}`} aria-hidden />
          <h1 className="mt-2 text-2xl font-bold">{title}</h1>
          <p className="text-base-content/70">{text}</p>
          {userId && <p className="text-sm text-base-content/70">Te llevaremos a tu perfil en unos segundos…</p>}
          <Link to="/profile" className={buttonClass('default', 'default', 'mt-4')}>
            Continuar a mi perfil
          </Link>
        </CardBody>
      </Card>
    </div>
  )
}
