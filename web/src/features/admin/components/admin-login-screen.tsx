import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router-dom'
import { CircleAlert, Eye, EyeOff, KeyRound, LockKeyhole } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardDescription } from '@/components/ui/card'
import { Field, Input } from '@/components/ui/input'
import { serverMessage } from '@/lib/api-client'
import { markAdminSignedIn } from '../admin-session'
import { useAdminLogin } from '../api/admin-login'
import { signInAdminWithPasskey } from '../api/admin-passkey'

/** Administrator login (SPEC §2): one password with show/hide, 'Acceder' / 'Verificando...'. */
export function AdminLoginScreen() {
  const navigate = useNavigate()
  const login = useAdminLogin()
  const [password, setPassword] = useState('')
  const [visible, setVisible] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [passkeyBusy, setPasskeyBusy] = useState(false)
  const sending = login.isPending

  const withPasskey = async () => {
    setError(null)
    setPasskeyBusy(true)
    try {
      await signInAdminWithPasskey()
      markAdminSignedIn()
      navigate('/admin')
    } catch (err) {
      setError(serverMessage(err, 'No pudimos verificar tu llave de acceso. Intenta de nuevo.'))
    } finally {
      setPasskeyBusy(false)
    }
  }

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault()
    if (!password.trim() || sending) return
    setError(null)
    try {
      await login.mutateAsync(password)
      markAdminSignedIn()
      navigate('/admin')
    } catch (err) {
      setError(serverMessage(err, 'Contraseña incorrecta'))
    }
  }

  return (
    <div className="flex min-h-[70vh] items-start justify-center bg-gradient-to-b from-primary/5 to-base-100 px-4 py-12 sm:items-center">
      <Card className="w-full max-w-md shadow-xl">
        <CardBody className="gap-6">
          <div className="text-center">
            <div className="mx-auto flex size-12 items-center justify-center rounded-2xl bg-primary/10 text-primary">
              <LockKeyhole className="size-7" aria-hidden />
            </div>
            <h1 className="mt-3 text-2xl font-bold">Acceso de Administrador</h1>
            <CardDescription className="mt-1">Ingresa la contraseña de administración para continuar.</CardDescription>
          </div>
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
            <Button type="submit" className="w-full" disabled={!password.trim() || sending}>
              {sending && <span className="loading loading-spinner loading-sm" />}
              {sending ? 'Verificando...' : 'Acceder'}
            </Button>
          </form>
        </CardBody>
      </Card>
    </div>
  )
}
