import { useState } from 'react'
import { CheckCircle2, Lock, Mail, MailCheck, RotateCcw } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardDescription, CardTitle } from '@/components/ui/card'
import { isNetworkError, serverMessage } from '@/lib/api-client'
import { useSendEmailVerificationLink } from '../api/send-email-verification-link'

type LinkState = { kind: 'initial' } | { kind: 'sent'; email?: string } | { kind: 'error'; message: string }

/** The level-2 e-mail verification widget (SPEC §2 'E-mail verification card'). */
export function EmailVerificationCard({ userId, level, email }: { userId: string; level: number; email?: string | null }) {
  const send = useSendEmailVerificationLink()
  const [state, setState] = useState<LinkState>({ kind: 'initial' })

  const sendLink = async () => {
    try {
      const res = await send.mutateAsync(userId)
      if (res.success === false) setState({ kind: 'error', message: res.message || 'Error enviando enlace' })
      else setState({ kind: 'sent', email: res.email ?? email ?? undefined })
    } catch (err) {
      setState({
        kind: 'error',
        message: isNetworkError(err) ? 'Error de conexión. Intenta nuevamente.' : serverMessage(err, 'Error enviando enlace'),
      })
    }
  }

  return (
    <Card data-testid="email-verification-card">
      <CardBody>
        <div className="flex items-start justify-between gap-3">
          <div>
            <CardTitle className="text-lg">
              <Mail className="size-5 text-primary" aria-hidden />
              Verificación de correo
            </CardTitle>
            <CardDescription>Nivel 2 · Confirma que el correo electrónico es tuyo.</CardDescription>
          </div>
          <Badge variant="outline">Nivel 2</Badge>
        </div>

        {level >= 2 ? (
          <Alert variant="success" icon={<CheckCircle2 className="size-5" aria-hidden />} title="Email Verificado">
            <Badge variant="success">Verificación Completa</Badge>
          </Alert>
        ) : level < 1 ? (
          <Alert icon={<Lock className="size-5" aria-hidden />} title="Requiere Nivel 1">
            Primero verifica tu número de teléfono para poder verificar tu correo electrónico.
          </Alert>
        ) : state.kind === 'sent' ? (
          <div className="space-y-3">
            <Alert variant="info" icon={<MailCheck className="size-5" aria-hidden />} title="Enlace enviado">
              Revisa tu bandeja de entrada{state.email ? ` en ${state.email}` : ''} y abre el enlace para verificar tu correo. El
              enlace es válido por 24 horas.
            </Alert>
            <Button variant="outline" size="sm" onClick={() => setState({ kind: 'initial' })}>
              <RotateCcw className="size-4" aria-hidden />
              Reenviar enlace
            </Button>
          </div>
        ) : (
          <div className="space-y-3">
            {state.kind === 'error' && <Alert variant="destructive">{state.message}</Alert>}
            <p className="text-sm text-base-content/70">
              Te enviaremos un enlace de verificación{email ? ` a ${email}` : ' a tu correo'}.
            </p>
            <Button size="sm" onClick={sendLink} disabled={send.isPending}>
              {send.isPending && <span className="loading loading-spinner loading-xs" />}
              Enviar enlace de verificación
            </Button>
          </div>
        )}
      </CardBody>
    </Card>
  )
}
