import { useState, type FormEvent } from 'react'
import { Download } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button, buttonClass } from '@/components/ui/button'
import { Field, Input } from '@/components/ui/input'
import { Table } from '@/components/ui/table'
import { serverMessage } from '@/lib/api-client'
import { auditCsvUrl, useAudit, type AuditFilters } from '../api/audit'

const OUTCOME: Record<string, { label: string; variant: 'outline' | 'destructive' | 'default' }> = {
  ok: { label: 'Hecho', variant: 'outline' },
  denied: { label: 'Negado', variant: 'destructive' },
  failed: { label: 'Fallido', variant: 'destructive' },
}

const ACTOR: Record<string, string> = { admin: 'Administrador', person: 'Persona', system: 'Sistema', partner_user: 'Usuario de plataforma' }

function when(iso: string): string {
  return new Date(iso).toLocaleString('es-MX', { dateStyle: 'short', timeStyle: 'medium', timeZone: 'America/Mexico_City' })
}

/** 'Bitácora': who did what, when and from where; filters, pages and the CSV export. */
export function AuditLog() {
  const [draft, setDraft] = useState<AuditFilters>({})
  const [filters, setFilters] = useState<AuditFilters>({})
  const [page, setPage] = useState(1)
  const audit = useAudit(filters, page)
  const total = audit.data?.total ?? 0
  const pages = Math.max(1, Math.ceil(total / (audit.data?.pageSize || 50)))

  const apply = (e: FormEvent) => {
    e.preventDefault()
    setFilters(draft)
    setPage(1)
  }
  const field = (key: keyof AuditFilters, label: string, type = 'text', placeholder = '') => (
    <Field label={label} htmlFor={`audit-${key}`}>
      <Input
        id={`audit-${key}`}
        type={type}
        placeholder={placeholder}
        value={draft[key] ?? ''}
        onChange={(e) => setDraft((d) => ({ ...d, [key]: e.target.value }))}
      />
    </Field>
  )

  return (
    <section className="space-y-4" aria-label="Bitácora">
      <p className="text-sm text-base-content/70">
        Cada acción del equipo y cada intento de inicio de sesión queda aquí. Nadie puede editarlo ni borrarlo.
      </p>
      <form className="grid gap-3 sm:grid-cols-3 lg:grid-cols-5" onSubmit={apply}>
        {field('actor', 'Quién', 'text', 'correo o ID de perfil')}
        {field('action', 'Acción', 'text', 'user.revoke o user.')}
        {field('target', 'Objetivo', 'text', 'user:42')}
        {field('from', 'Desde', 'date')}
        {field('to', 'Hasta', 'date')}
        {/* Their own row: beside the fields, at 1280 px, "Exportar CSV" stuck out of the card. */}
        <div className="flex flex-wrap items-end gap-2 sm:col-span-3 lg:col-span-5">
          <Button type="submit">Filtrar</Button>
          <a className={buttonClass('outline')} href={auditCsvUrl(filters)} download>
            <Download className="size-4" aria-hidden />
            Exportar CSV
          </a>
        </div>
      </form>
      {audit.isError ? (
        <p className="text-sm text-error">{serverMessage(audit.error, 'No pudimos cargar la bitácora.')}</p>
      ) : audit.isPending ? (
        <span className="loading loading-spinner loading-sm" role="status" aria-label="Cargando bitácora" />
      ) : (
        <>
          <Table bordered={false} className="table-sm" columns={['Fecha', 'Quién', 'Acción', 'Objetivo', 'Desde', 'Resultado']}>
            {audit.data.events.length === 0 ? (
              <tr>
                <td colSpan={6} className="text-center text-base-content/70">
                  Sin eventos con estos filtros.
                </td>
              </tr>
            ) : (
              audit.data.events.map((e) => (
                <tr key={e.id} data-testid="audit-row">
                  <td className="whitespace-nowrap">{when(e.at)}</td>
                  <td>
                    <div>{e.actorLabel || '—'}</div>
                    <div className="text-xs text-base-content/60">{ACTOR[e.actorKind] ?? e.actorKind}</div>
                  </td>
                  <td>
                    <div>{e.actionLabel || e.action}</div>
                    <code className="text-xs text-base-content/60">{e.action}</code>
                    {e.changes && Object.keys(e.changes).length > 0 && (
                      <ul className="text-xs text-base-content/70">
                        {Object.entries(e.changes).map(([k, c]) => (
                          <li key={k}>
                            {k}: {c.before === undefined ? '' : `${String(c.before)} → `}
                            {c.after === undefined ? '—' : String(c.after)}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td>{e.targetText || '—'}</td>
                  <td className="text-xs" title={e.userAgent}>
                    {e.ip || '—'}
                  </td>
                  <td>
                    <Badge variant={OUTCOME[e.outcome]?.variant ?? 'outline'} className="badge-sm">
                      {OUTCOME[e.outcome]?.label ?? e.outcome}
                    </Badge>
                  </td>
                </tr>
              ))
            )}
          </Table>
          <div className="flex items-center justify-between text-sm">
            <span>
              {total} {total === 1 ? 'evento' : 'eventos'} · página {page} de {pages}
            </span>
            <div className="join">
              <Button variant="outline" size="sm" className="join-item" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                Anterior
              </Button>
              <Button variant="outline" size="sm" className="join-item" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
                Siguiente
              </Button>
            </div>
          </div>
        </>
      )}
    </section>
  )
}
