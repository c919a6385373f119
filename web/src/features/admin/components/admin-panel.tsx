import { useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { Activity, LogOut } from 'lucide-react'
import { Button, buttonClass } from '@/components/ui/button'
import { Card, CardBody, CardDescription, CardTitle } from '@/components/ui/card'
import { useToast } from '@/components/ui/toast'
import { serverMessage } from '@/lib/api-client'
import { cn } from '@/lib/cn'
import { clearAdminFlags } from '../admin-session'
import { adminLogout } from '../api/admin-logout'
import { useDeleteUser } from '../api/delete-user'
import type { AdminUser } from '../api/get-users'
import { ArcoRequestsPanel } from './arco-requests-panel'
import { DeleteUserDialog } from './delete-user-dialog'
import { LifecycleDialog } from './lifecycle-dialog'
import { PartnersSection } from './partners-section'
import { useAdminUnauthorized } from './use-admin-unauthorized'
import { UserForm } from './user-form'
import { UserPayments } from './user-payments'
import { UsersTable } from './users-table'

type Tab = 'users' | 'create' | 'edit' | 'arco'

/** The admin panel (SPEC §2): header, the spec's three tabs and the ARCO queue, delete dialog, partners and the operators' link. */
export function AdminPanel() {
  const navigate = useNavigate()
  const { toast } = useToast()
  const onUnauthorized = useAdminUnauthorized()
  const [tab, setTab] = useState<Tab>('users')
  const [editId, setEditId] = useState<number | null>(null)
  const [deleteId, setDeleteId] = useState<number | null>(null)
  const [lifecycleUser, setLifecycleUser] = useState<AdminUser | null>(null)
  const deleteUser = useDeleteUser({
    onDeleted: () => toast({ title: 'Usuario eliminado', description: 'El usuario ha sido eliminado correctamente' }),
    onFailed: (err) => {
      if (onUnauthorized(err)) return
      toast({ title: 'Error al eliminar', description: serverMessage(err, err.message), variant: 'destructive' })
    },
  })

  const signOut = () => {
    clearAdminFlags()
    void adminLogout().catch(() => undefined)
    navigate('/admin-login')
  }

  const backToList = () => {
    setTab('users')
    setEditId(null)
  }

  const confirmDelete = () => {
    if (deleteId === null) return
    const id = deleteId
    setDeleteId(null)
    deleteUser.mutate(id)
  }

  const tabs: { id: Tab; label: string; disabled?: boolean }[] = [
    { id: 'users', label: 'Usuarios' },
    { id: 'create', label: 'Crear Usuario' },
    { id: 'edit', label: 'Editar Usuario', disabled: editId === null },
    { id: 'arco', label: 'Solicitudes ARCO' },
  ]

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">Panel de Administración</h1>
        <div className="flex flex-wrap gap-2">
          <a href="/admin/monitoring" target="_blank" rel="noopener noreferrer" className={buttonClass('outline')}>
            <Activity className="size-4" aria-hidden />
            Monitoreo de tareas
          </a>
          <Button variant="outline" onClick={signOut}>
            <LogOut className="size-4" aria-hidden />
            Cerrar Sesión
          </Button>
        </div>
      </div>

      <Card>
        <CardBody className="gap-6">
          <div role="tablist" className="tabs tabs-border">
            {tabs.map((t) => (
              <button
                key={t.id}
                type="button"
                role="tab"
                aria-selected={tab === t.id}
                disabled={t.disabled}
                className={cn('tab', tab === t.id && 'tab-active', t.disabled && 'tab-disabled')}
                onClick={() => {
                  if (t.id === 'create') setEditId(null)
                  setTab(t.id)
                }}
              >
                {t.label}
              </button>
            ))}
          </div>
          <div role="tabpanel">
            {tab === 'users' && (
              <UsersTable
                onEdit={(id) => {
                  setEditId(id)
                  setTab('edit')
                }}
                onDelete={setDeleteId}
                onLifecycle={setLifecycleUser}
              />
            )}
            {tab === 'create' && <UserForm key="create" userId={null} onDone={backToList} />}
            {tab === 'edit' && editId !== null && (
              <div className="space-y-8">
                <UserForm key={`edit-${editId}`} userId={editId} onDone={backToList} />
                <UserPayments key={`payments-${editId}`} userId={editId} />
              </div>
            )}
            {tab === 'arco' && <ArcoRequestsPanel />}
          </div>
        </CardBody>
      </Card>

      <Card>
        <CardBody className="gap-4">
          <div>
            <CardTitle>Socios de integración</CardTitle>
            <CardDescription>Plataformas autorizadas a usar el widget desde su dominio.</CardDescription>
          </div>
          <PartnersSection />
        </CardBody>
      </Card>

      <LifecycleDialog
        user={lifecycleUser}
        onClose={() => setLifecycleUser(null)}
        onUnauthorized={onUnauthorized}
        onRevoked={(u) => {
          setLifecycleUser(u)
          toast({ title: 'Validación revocada', description: `La validación de ${u.nombre} fue revocada.` })
        }}
      />
      <DeleteUserDialog open={deleteId !== null} pending={deleteUser.isPending} onCancel={() => setDeleteId(null)} onConfirm={confirmDelete} />
    </div>
  )
}
