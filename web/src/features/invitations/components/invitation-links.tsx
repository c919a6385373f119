import { useEffect, useState } from 'react'
import { Check, Copy } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { useToast } from '@/components/ui/toast'
import { useInvitations } from '../api/get-invitations'
import type { Invitation } from '../api/types'
import { formatDate, typeLabel } from './format'

/** How long the copied check stays (SPEC §9: copy feedback 2 s). */
export const COPY_FEEDBACK_MS = 2000

/** One unique link with a copy control. */
export function InvitationLinkCard({ invitation }: { invitation: Invitation }) {
  const [copied, setCopied] = useState(false)
  const { toast } = useToast()

  useEffect(() => {
    if (!copied) return
    const timer = window.setTimeout(() => setCopied(false), COPY_FEEDBACK_MS)
    return () => window.clearTimeout(timer)
  }, [copied])

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(invitation.uniqueLink)
      setCopied(true)
    } catch {
      toast({ title: 'Error al copiar', description: 'No se pudo copiar al portapapeles', variant: 'destructive' })
    }
  }

  const inputId = `link-${invitation.id}`
  return (
    <div className="rounded-box border border-base-300 p-4 space-y-2" data-testid="invitation-link">
      <label htmlFor={inputId} className="block text-sm font-medium">
        {invitation.inviteeName} · {typeLabel[invitation.type]}
      </label>
      <div className="join w-full">
        <input id={inputId} className="input join-item w-full font-mono text-xs" readOnly value={invitation.uniqueLink} onFocus={(e) => e.target.select()} />
        <Button className="join-item" variant={copied ? 'secondary' : 'default'} onClick={copy} aria-label={copied ? 'Link copiado' : 'Copiar link'}>
          {copied ? <Check className="size-4" aria-hidden /> : <Copy className="size-4" aria-hidden />}
          {copied ? 'Copiado' : 'Copiar'}
        </Button>
      </div>
      <p className="text-xs text-base-content/70">
        Código {invitation.invitationCode} · Vence el {formatDate(invitation.expiresAt)} · El link funciona una sola vez.
      </p>
    </div>
  )
}

/** The links tab: the unique link of every pending invitation. */
export function InvitationLinks({ inviterId }: { inviterId: string }) {
  const invitations = useInvitations(inviterId)
  if (invitations.isPending) {
    return (
      <div className="flex justify-center py-10">
        <span className="loading loading-spinner loading-lg" aria-label="Cargando links" />
      </div>
    )
  }
  if (invitations.isError) return <Alert variant="destructive" title="Error al obtener invitaciones" />
  const pending = invitations.data.filter((inv) => inv.status === 'pending')
  if (pending.length === 0) {
    return <p className="py-8 text-center text-base-content/70">No tienes links de invitación activos.</p>
  }
  return (
    <div className="space-y-3">
      {pending.map((inv) => (
        <InvitationLinkCard key={inv.id} invitation={inv} />
      ))}
    </div>
  )
}
