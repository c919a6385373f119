import { useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { LogOut } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardBody } from '@/components/ui/card'
import { cn } from '@/lib/cn'
import { signOutPartner } from '../api/console-passkey'
import { usePendingHits } from '../api/aml-review'
import { consoleMeQueryOptions } from '../api/get-console-me'
import { can, ROLE_LABEL } from '../labels'
import type { ConsoleMe, Mode } from '../types'
import { AvisosTab } from './avisos-tab'
import { DeliveriesTab } from './deliveries-tab'
import { KeysTab } from './keys-tab'
import { ListsTab } from './lists-tab'
import { ModeToggle } from './mode-toggle'
import { OperationsTab } from './operations-tab'
import { SessionsTab } from './sessions-tab'
import { TeamTab } from './team-tab'
import { TestInboxTab } from './test-inbox-tab'
import { UsageTab } from './usage-tab'
import { WebhooksTab } from './webhooks-tab'

type Tab = 'keys' | 'webhooks' | 'deliveries' | 'sessions' | 'operations' | 'avisos' | 'lists' | 'inbox' | 'usage' | 'team'

const TABS: { id: Tab; label: string; byMode?: boolean }[] = [
  { id: 'keys', label: 'Llaves', byMode: true },
  { id: 'webhooks', label: 'Webhooks' },
  { id: 'deliveries', label: 'Entregas' },
  { id: 'sessions', label: 'Sesiones', byMode: true },
  { id: 'operations', label: 'Operaciones', byMode: true },
  { id: 'avisos', label: 'Avisos', byMode: true },
  { id: 'lists', label: 'Listas', byMode: true },
  { id: 'inbox', label: 'Bandeja de prueba' },
  { id: 'usage', label: 'Uso', byMode: true },
  { id: 'team', label: 'Equipo' },
]

/** The console: the platform and who is signed in, the Prueba / Producción switch, and the eight tabs. */
export function ConsolePanel({ me }: { me: ConsoleMe }) {
  const client = useQueryClient()
  const [tab, setTab] = useState<Tab>('keys')
  const [mode, setMode] = useState<Mode>('test')
  const [leaving, setLeaving] = useState(false)
  const current = TABS.find((t) => t.id === tab)
  const pendingHits = usePendingHits(mode, can(me, 'compliance'))
  const pendingCount = pendingHits.data?.count ?? 0

  const signOut = async () => {
    setLeaving(true)
    try {
      await signOutPartner()
    } catch {
      // The session ends on the server or by itself in a few hours; the console forgets it now.
    }
    // Nothing of the platform stays in memory for the next person at this browser.
    client.setQueryData(consoleMeQueryOptions.queryKey, null)
    client.removeQueries({ queryKey: ['partner-console'], predicate: (q) => q.queryKey[1] !== 'me' })
  }

  return (
    <div className="mx-auto max-w-7xl space-y-6 px-4 py-8 sm:py-10">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <p className="text-sm font-medium text-primary">Consola de socios</p>
          <h1 className="text-2xl font-bold break-words sm:text-3xl">{me.partner.name}</h1>
          <p className="text-sm break-words text-base-content/70" data-testid="console-identity">
            {me.user.name} · {me.user.email} · {ROLE_LABEL[me.user.role]}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <ModeToggle mode={mode} onChange={setMode} />
          <Button variant="outline" size="sm" onClick={signOut} disabled={leaving}>
            <LogOut className="size-4" aria-hidden />
            Cerrar sesión
          </Button>
        </div>
      </div>

      {!me.partner.isActive && (
        <Alert variant="warning" title="Tu plataforma está desactivada">
          Sus llaves no funcionan y no enviamos notificaciones. Escribe a soporte para reactivarla.
        </Alert>
      )}

      <Card>
        <CardBody className="gap-6 p-4 sm:p-6">
          <div className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0">
            <div role="tablist" aria-label="Secciones de la consola" className="tabs tabs-border flex-nowrap whitespace-nowrap">
              {TABS.map((t) => (
                <button
                  key={t.id}
                  type="button"
                  role="tab"
                  aria-selected={tab === t.id}
                  className={cn('tab', tab === t.id && 'tab-active')}
                  onClick={() => setTab(t.id)}
                >
                  {t.label}
                  {t.id === 'operations' && pendingCount > 0 && (
                    <span className="badge badge-warning badge-sm ml-1" aria-label={`${pendingCount} por revisar`} data-testid="pending-hits-badge">
                      {pendingCount}
                    </span>
                  )}
                </button>
              ))}
            </div>
          </div>
          <div role="tabpanel" aria-label={current?.label} className="space-y-6">
            {current?.byMode && (
              <Badge variant={mode === 'test' ? 'warning' : 'success'} className="badge-sm" data-testid="mode-badge">
                {mode === 'test' ? 'Viendo datos de prueba' : 'Viendo datos de producción'}
              </Badge>
            )}
            {tab === 'keys' && <KeysTab me={me} mode={mode} />}
            {tab === 'webhooks' && <WebhooksTab me={me} />}
            {tab === 'deliveries' && <DeliveriesTab me={me} />}
            {tab === 'sessions' && <SessionsTab mode={mode} />}
            {tab === 'operations' && <OperationsTab me={me} mode={mode} />}
            {tab === 'avisos' && <AvisosTab me={me} mode={mode} />}
            {tab === 'lists' && <ListsTab me={me} mode={mode} />}
            {tab === 'inbox' && <TestInboxTab />}
            {tab === 'usage' && <UsageTab mode={mode} />}
            {tab === 'team' && <TeamTab me={me} />}
          </div>
        </CardBody>
      </Card>
    </div>
  )
}
