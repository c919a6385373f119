import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router-dom'
import { CircleAlert, Eye, EyeOff, KeyRound, LockKeyhole } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { ScreenCard } from '@/components/ui/card'
import { Field, Input } from '@/components/ui/input'
import { serverMessage } from '@/lib/api-client'
import { useAsyncAction } from '@/lib/use-async-action'
import { markAdminSignedIn } from '../admin-session'
import { useAdminLogin } from '../api/admin-login'
import { signInAdminWithPasskey } from '../api/admin-passkey'

/** Administrator login (SPEC §2): one password with show/hide, 'Acceder' / 'Verificando...'. */
export function AdminLoginScreen() {
  const navigate = useNavigate()
  const login = useAdminLogin()
  const [password, setPassword] = useState('')
  const [visible, setVisible] = useState(false)
  const { busy: passkeyBusy, error, setError, run } = useAsyncAction()
  const sending = login.isPending

  const withPasskey = () =>
    run(
      async () => {
        await signInAdminWithPasskey()
        markAdminSignedIn()
        navigate('/admin')
      },
      (err) => serverMessage(err, 'No pudimos verificar tu llave de acceso. Intenta de nuevo.'),
    )

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault()
    if (!password.trim() || sending) return
    setError('')
    try {
      await login.mutateAsync(password)
      markAdminSignedIn()
      navigate('/admin')
    } catch (err) {
      setError(serverMessage(err, 'Contraseña incorrecta'))
    }
  }

  return (
    <ScreenCard welcome icon={LockKeyhole} title="Acceso de Administrador" description="Ingresa la contraseña de administración para continuar.">
      {error && (
        <Alert variant="destructive" icon={<CircleAlert className="size-5" aria-hidden />} data-testid="admin-login-error">
          {error}
        </Alert>
      )}
      <Button variant="outline" className="w-full" onClick={withPasskey} disabled={passkeyBusy}>
        {passkeyBusy ? <span className="loading loading-spinner loading-sm" /> : <KeyRound className="size-4" aria-hidden />}
        Entrar con llave de acceso
      </Button>
      <div className="divider text-xs text-base-content/60">o con la contraseña de desarrollo</div>
      <form className="space-y-4" onSubmit={onSubmit} noValidate>
        <Field label="Contraseña" htmlFor="admin-password">
          <div className="relative">
            <Input
              id="admin-password"
              type={visible ? 'text' : 'password'}
              autoComplete="current-password"
              placeholder="Contraseña de administrador"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              className="pr-12"
              autoFocus
            />
            <button
              type="button"
              className="btn btn-ghost btn-sm btn-square absolute right-1 top-1/2 z-10 -translate-y-1/2"
              onClick={() => setVisible((v) => !v)}
              aria-label={visible ? 'Ocultar contraseña' : 'Mostrar contraseña'}
              aria-pressed={visible}
            >
              {visible ? <EyeOff className="size-4" aria-hidden /> : <Eye className="size-4" aria-hidden />}
            </button>
          </div>
        </Field>
        <Button type="submit" className="w-full" disabled={!password.trim() || sending} pending={sending}>
          {sending ? 'Verificando...' : 'Acceder'}
        </Button>
      </form>
    </ScreenCard>
  )
}
