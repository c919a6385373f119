import { useEffect, useState } from 'react'
import { Navigate, useNavigate } from 'react-router-dom'
import { Link2, ListChecks, Send } from 'lucide-react'
import { isBiometricVerified, useVerificationStatus } from '@/api/get-verification-status'
import { Card, CardBody, CardDescription } from '@/components/ui/card'
import { useToast } from '@/components/ui/toast'
import { cn } from '@/lib/cn'
import { useStoredUserId } from '@/lib/session'
import { InvitationLinks } from './invitation-links'
import { InvitationsList } from './invitations-list'
import { SendInvitationForm } from './send-invitation-form'

type Tab = 'send' | 'manage' | 'links'

const tabs: Array<{ id: Tab; label: string; icon: typeof Send }> = [
  { id: 'send', label: 'Enviar invitación', icon: Send },
  { id: 'manage', label: 'Gestionar', icon: ListChecks },
  { id: 'links', label: 'Links únicos', icon: Link2 },
]

/** The invitations screen (SPEC §2): only for biometrically verified users. */
export function InvitationsScreen() {
  const userId = useStoredUserId()
  const status = useVerificationStatus(userId)
  const allowed = Boolean(status.data && isBiometricVerified(status.data) && (status.data.verificationLevel ?? 0) >= 3)
  const denied = !userId || status.isError || (status.isSuccess && !allowed)
  const navigate = useNavigate()
  const { toast } = useToast()
  const [tab, setTab] = useState<Tab>('send')

  useEffect(() => {
    if (userId && denied) {
      toast({
        title: 'Acceso restringido',
        description: 'Completa tu verificación biométrica para acceder a invitaciones',
        variant: 'destructive',
      })
      navigate('/profile', { replace: true })
    }
  }, [userId, denied, toast, navigate])

  if (!userId) return <Navigate to="/profile" replace />
  if (!allowed) {
    return (
      <div className="flex justify-center py-24">
        <span className="loading loading-spinner loading-lg" aria-label="Cargando" />
      </div>
    )
  }

  return (
    <section className="mx-auto max-w-3xl px-4 py-10 space-y-6">
      <div className="space-y-1">
        <h1 className="text-3xl font-bold">Invitaciones</h1>
        <p className="text-base-content/70">Invita a tus clientes y brokers a validar su identidad con Perfil Seguro.</p>
      </div>
      <div role="tablist" className="tabs tabs-box w-full">
        {tabs.map(({ id, label, icon: Icon }) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`tab-${id}`}
            aria-selected={tab === id}
            aria-controls={`panel-${id}`}
            className={cn('tab flex-1 gap-2', tab === id && 'tab-active')}
            onClick={() => setTab(id)}
          >
            <Icon className="size-4" aria-hidden />
            <span className="max-sm:sr-only">{label}</span>
          </button>
        ))}
      </div>
      <Card>
        <CardBody role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
          {tab === 'send' && (
            <>
              <CardDescription>Tu invitado recibirá un correo (y WhatsApp si agregas su teléfono) con un link único.</CardDescription>
              <SendInvitationForm inviterId={userId} onSent={() => setTab('links')} />
            </>
          )}
          {tab === 'manage' && <InvitationsList inviterId={userId} />}
          {tab === 'links' && <InvitationLinks inviterId={userId} />}
        </CardBody>
      </Card>
    </section>
  )
}
