import { useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { EnrolmentBadge, type EnrolmentBadgeLook, type EnrolmentState } from '@/components/ui/enrolment-badge'
import { Select } from '@/components/ui/input'
import { Table } from '@/components/ui/table'
import { useToast } from '@/components/ui/toast'
import { serverMessage } from '@/lib/api-client'
import { useAdmins, useChangeAdminRole, useDisableAdmin, useInviteAdmin, useReissueEnrolment, type AdminInvite } from '../api/admins'
import { ROLE_LABEL, type AdminRole } from '../roles'
import { EnrolmentLinkAlert, InviteeFields, isInviteeComplete } from './invitee-fields'

const ROLES: AdminRole[] = ['administrador', 'soporte', 'finanzas']
const ROLE_OPTIONS = ROLES.map((r) => ({ value: r, label: ROLE_LABEL[r] }))
const STATE_LOOKS: Record<EnrolmentState, EnrolmentBadgeLook> = {
  disabled: { variant: 'destructive', label: 'Desactivado' },
  enrolled: { variant: 'outline', label: 'Activo' },
  pending: { variant: 'outline', label: 'Sin llave registrada' },
}

/** 'Administradores': invite (the enrolment link is shown once), change roles, disable. Only for administradores. */
export function AdminsSection({ myId }: { myId?: number }) {
  const { toast } = useToast()
  const admins = useAdmins()
  const invite = useInviteAdmin()
  const changeRole = useChangeAdminRole()
  const disable = useDisableAdmin()
  const reissue = useReissueEnrolment()
  const [form, setForm] = useState<AdminInvite>({ email: '', name: '', role: 'soporte' })
  const [link, setLink] = useState<{ name: string; url: string } | null>(null)
  const failed = (err: unknown) => toast({ title: 'No se pudo', description: serverMessage(err, 'Intenta de nuevo.'), variant: 'destructive' })

  const submit = (e: FormEvent) => {
    e.preventDefault()
    invite.mutate(form, {
      onSuccess: (res) => {
        setLink({ name: res.admin.name, url: res.enrolmentUrl })
        setForm({ email: '', name: '', role: 'soporte' })
      },
      onError: failed,
    })
  }

  return (
    <section className="space-y-6" aria-label="Administradores">
      {link && (
        <EnrolmentLinkAlert title={`Enlace de registro para ${link.name}`} url={link.url} testId="enrolment-link">
          Compártelo solo con esa persona. Funciona una vez, durante 24 horas, y no se volverá a mostrar.
        </EnrolmentLinkAlert>
      )}
      <form className="grid gap-3 sm:grid-cols-4" onSubmit={submit}>
        <InviteeFields idPrefix="admin-invite" value={form} onChange={setForm} roleLabel="Rol" roles={ROLE_OPTIONS} />
        <div className="flex items-end">
          <Button type="submit" disabled={invite.isPending || !isInviteeComplete(form)}>
            Invitar
          </Button>
        </div>
      </form>
      <Table bordered={false} className="table-sm" columns={['Nombre', 'Correo', 'Rol', 'Estado', 'Acciones']}>
        {(admins.data ?? []).map((a) => (
          <tr key={a.id} data-testid="admin-row">
            <td>{a.name}</td>
            <td>{a.email}</td>
            <td>
              <Select
                aria-label={`Rol de ${a.name}`}
                className="select-sm"
                options={ROLE_OPTIONS}
                value={a.role}
                disabled={Boolean(a.disabledAt) || changeRole.isPending}
                onChange={(e) => changeRole.mutate({ id: a.id, role: e.target.value as AdminRole }, { onError: failed })}
              />
            </td>
            <td>
              <EnrolmentBadge account={a} looks={STATE_LOOKS} className="badge-sm" />
            </td>
            <td className="flex gap-1">
              {!a.disabledAt && (
                <>
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() =>
                      reissue.mutate(a.id, { onSuccess: (res) => setLink({ name: res.admin.name, url: res.enrolmentUrl }), onError: failed })
                    }
                  >
                    Nuevo enlace
                  </Button>
                  {a.id !== myId && (
                    <Button variant="ghost" size="sm" className="text-error" onClick={() => disable.mutate(a.id, { onError: failed })}>
                      Desactivar
                    </Button>
                  )}
                </>
              )}
            </td>
          </tr>
        ))}
      </Table>
    </section>
  )
}
