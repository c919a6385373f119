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
import { useAdminSession } from '../api/get-admin-session'
import { can, ROLE_LABEL } from '../roles'
import { AdminsSection } from './admins-section'
import { AmlThresholdsSection } from './aml-thresholds-section'
import { AuditLog } from './audit-log'
import type { AdminUser } from '../api/get-users'
import { ArcoRequestsPanel } from './arco-requests-panel'
import { DeleteUserDialog } from './delete-user-dialog'
import { IdentityReviewsPanel } from './identity-reviews-panel'
import { LifecycleDialog } from './lifecycle-dialog'
import { PartnersSection } from './partners-section'
import { useAdminUnauthorized } from './use-admin-unauthorized'
import { UserForm } from './user-form'
import { UserIdentity } from './user-identity'
import { UserPayments } from './user-payments'
import { UsersTable } from './users-table'

type Tab = 'users' | 'create' | 'edit' | 'identity' | 'arco' | 'audit' | 'admins' | 'aml'

/** The admin panel (SPEC §2): header, the spec's three tabs and the ARCO queue, delete dialog, partners and the operators' link. */
export function AdminPanel() {
  const navigate = useNavigate()
  const { toast } = useToast()
  const onUnauthorized = useAdminUnauthorized()
  const [tab, setTab] = useState<Tab>('users')
  const [editId, setEditId] = useState<number | null>(null)
  const [deleteId, setDeleteId] = useState<number | null>(null)
  const [lifecycleUser, setLifecycleUser] = useState<AdminUser | null>(null)
  // The role decides what is shown; the server refuses the rest anyway (403).
  const session = useAdminSession()
  const me = session.data?.admin
  const role = me?.role
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

  const tabs: { id: Tab; label: string; disabled?: boolean; hidden?: boolean }[] = [
    { id: 'users', label: 'Usuarios' },
    { id: 'create', label: 'Crear Usuario', hidden: !can(role, 'editUsers') },
    { id: 'edit', label: can(role, 'editUsers') ? 'Editar Usuario' : 'Ver Usuario', disabled: editId === null },
    { id: 'identity', label: 'Revisión de identidad', hidden: !can(role, 'identityReview') },
    { id: 'arco', label: 'Solicitudes ARCO', hidden: !can(role, 'arco') },
    { id: 'audit', label: 'Bitácora', hidden: !can(role, 'audit') },
    { id: 'admins', label: 'Administradores', hidden: !can(role, 'admins') },
    { id: 'aml', label: 'Umbrales LFPIORPI' },
  ]

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">Panel de Administración</h1>
          {me && (
            <p className="text-sm text-base-content/70" data-testid="admin-identity">
              {me.name} · {me.email} · {ROLE_LABEL[me.role]}
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          {can(role, 'monitoring') && (
            <a href="/admin/monitoring" target="_blank" rel="noopener noreferrer" className={buttonClass('outline')}>
              <Activity className="size-4" aria-hidden />
              Monitoreo de tareas
            </a>
          )}
          <Button variant="outline" onClick={signOut}>
            <LogOut className="size-4" aria-hidden />
            Cerrar Sesión
          </Button>
        </div>
      </div>

      <Card>
        <CardBody className="gap-6">
          <div role="tablist" className="tabs tabs-border">
            {tabs.filter((t) => !t.hidden).map((t) => (
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
                canEdit={can(role, 'editUsers')}
                canDelete={can(role, 'deleteUsers')}
              />
            )}
            {tab === 'create' && <UserForm key="create" userId={null} onDone={backToList} />}
            {tab === 'edit' && editId !== null && (
              <div className="space-y-8">
                {can(role, 'editUsers') && <UserForm key={`edit-${editId}`} userId={editId} onDone={backToList} />}
                {can(role, 'identityReview') && <UserIdentity key={`identity-${editId}`} userId={editId} />}
                <UserPayments key={`payments-${editId}`} userId={editId} canRefund={can(role, 'refund')} />
              </div>
            )}
            {tab === 'identity' && <IdentityReviewsPanel />}
            {tab === 'arco' && <ArcoRequestsPanel />}
            {tab === 'audit' && <AuditLog />}
            {tab === 'admins' && <AdminsSection myId={me?.id} />}
            {tab === 'aml' && <AmlThresholdsSection canEdit={can(role, 'amlEdit')} onUnauthorized={onUnauthorized} />}
          </div>
        </CardBody>
      </Card>

      {can(role, 'partners') && (
        <Card>
          <CardBody className="gap-4">
            <div>
              <CardTitle>Socios de integración</CardTitle>
              <CardDescription>Plataformas autorizadas a usar el widget desde su dominio.</CardDescription>
            </div>
            <PartnersSection />
          </CardBody>
        </Card>
      )}

      <LifecycleDialog
        user={lifecycleUser}
        onClose={() => setLifecycleUser(null)}
        onUnauthorized={onUnauthorized}
        canRevoke={can(role, 'revoke')}
        onRevoked={(u) => {
          setLifecycleUser(u)
          toast({ title: 'Validación revocada', description: `La validación de ${u.nombre} fue revocada.` })
        }}
        canLift={can(role, 'liftRevocation')}
        onLifted={(u) => {
          setLifecycleUser(u)
          toast({
            title: 'Revocación levantada',
            description: `${u.nombre} puede validar su identidad de nuevo. Le avisamos por correo.`,
          })
        }}
      />
      <DeleteUserDialog open={deleteId !== null} pending={deleteUser.isPending} onCancel={() => setDeleteId(null)} onConfirm={confirmDelete} />
    </div>
  )
}
