import { useMemo, useState } from 'react'
import { Eye, Pencil, RefreshCw, Search, ShieldOff, Trash2 } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button, IconButton } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { QueryTable } from '@/components/ui/table'
import { useUsers, type AdminUser } from '../api/get-users'
import { INVITATION_ORIGIN } from '../schemas'
import { useAdminUnauthorizedOn } from './use-admin-unauthorized'

/** SPEC §5: case-insensitive substring over nombre, id_validado, email (when present) and origen. */
export function filterUsers(users: AdminUser[], query: string): AdminUser[] {
  const q = query.trim().toLowerCase()
  if (!q) return users
  return users.filter((u) =>
    [u.nombre, u.id_validado, u.email ?? '', u.origen].some((field) => (field ?? '').toLowerCase().includes(q)),
  )
}

/** 'año' for 1, otherwise 'años' (SPEC §2). */
export function vigenciaLabel(vigencia: number): string {
  return `${vigencia} ${vigencia === 1 ? 'año' : 'años'}`
}

/** The users table of the admin panel (SPEC §2). */
export function UsersTable({
  onEdit,
  onDelete,
  onLifecycle,
  canEdit = true,
  canDelete = true,
}: {
  onEdit: (id: number) => void
  onDelete: (id: number) => void
  onLifecycle: (user: AdminUser) => void
  /** The role may edit users (the server checks it too). */
  canEdit?: boolean
  /** The role may delete users. */
  canDelete?: boolean
}) {
  const users = useUsers()
  useAdminUnauthorizedOn(users.error)
  const [query, setQuery] = useState('')
  const shown = useMemo(() => filterUsers(users.data ?? [], query), [users.data, query])

  return (
    <div className="space-y-4">
      <div className="flex items-center gap-2">
        <label className="input w-full max-w-md">
          <Search className="size-4 opacity-60" aria-hidden />
          <Input
            type="search"
            className="input-ghost grow border-0 p-0 focus:outline-none"
            placeholder="Buscar usuarios..."
            aria-label="Buscar usuarios"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </label>
        <Button variant="outline" size="icon" onClick={() => users.refetch()} aria-label="Actualizar lista" title="Actualizar">
          <RefreshCw className={users.isFetching ? 'size-4 animate-spin' : 'size-4'} aria-hidden />
        </Button>
      </div>
      <QueryTable
        columns={['Nombre', 'Email', 'Origen', 'Vigencia', 'ID Validado', { label: 'Acciones', className: 'w-[100px]' }]}
        query={users}
        loadingLabel="Cargando usuarios"
        error="Error al cargar los usuarios"
        isEmpty={shown.length === 0}
        empty="No se encontraron usuarios."
      >
        {shown.map((u) => (
          <tr key={u.id} data-testid="user-row">
            <td className="font-medium">{u.nombre}</td>
            <td>{u.email || 'N/A'}</td>
            <td>
              <div>{u.origen}</div>
              {u.origen === INVITATION_ORIGIN && u.inviterName && <div className="text-xs text-base-content/70">por {u.inviterName}</div>}
            </td>
            <td className="whitespace-nowrap">{vigenciaLabel(u.vigencia)}</td>
            <td className="font-mono text-sm whitespace-nowrap">
              <div>{u.id_validado}</div>
              {u.revokedAt ? (
                <Badge variant="destructive" className="badge-sm font-sans">
                  Revocado
                </Badge>
              ) : (
                u.expiredAt && (
                  <Badge variant="outline" className="badge-sm font-sans">
                    Expirado
                  </Badge>
                )
              )}
            </td>
            <td className="w-[100px]">
              <div className="flex gap-1">
                <IconButton icon={canEdit ? Pencil : Eye} label={`${canEdit ? 'Editar' : 'Ver'} ${u.nombre}`} onClick={() => onEdit(u.id)} />
                {(u.fecha_validacion || u.revokedAt) && (
                  <IconButton icon={ShieldOff} label={`Validación de ${u.nombre}`} title="Historial y revocación" onClick={() => onLifecycle(u)} />
                )}
                {canDelete && <IconButton icon={Trash2} label={`Eliminar ${u.nombre}`} className="text-error" onClick={() => onDelete(u.id)} />}
              </div>
            </td>
          </tr>
        ))}
      </QueryTable>
    </div>
  )
}
