import { useState, type FormEvent } from 'react'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Field, Input } from '@/components/ui/input'
import { useToast } from '@/components/ui/toast'
import { serverMessage } from '@/lib/api-client'
import { useAdmins, useChangeAdminRole, useDisableAdmin, useInviteAdmin, useReissueEnrolment, type AdminInvite } from '../api/admins'
import { ROLE_LABEL, type AdminRole } from '../roles'

const ROLES: AdminRole[] = ['administrador', 'soporte', 'finanzas']

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
        <Alert title={`Enlace de registro para ${link.name}`} data-testid="enrolment-link">
          <p>Compártelo solo con esa persona. Funciona una vez, durante 24 horas, y no se volverá a mostrar.</p>
          <code className="mt-2 block break-all">{link.url}</code>
        </Alert>
      )}
      <form className="grid gap-3 sm:grid-cols-4" onSubmit={submit}>
        <Field label="Correo" htmlFor="admin-invite-email">
          <Input id="admin-invite-email" type="email" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
        </Field>
        <Field label="Nombre" htmlFor="admin-invite-name">
          <Input id="admin-invite-name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </Field>
        <Field label="Rol" htmlFor="admin-invite-role">
          <select
            id="admin-invite-role"
            className="select w-full"
            value={form.role}
            onChange={(e) => setForm({ ...form, role: e.target.value as AdminRole })}
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABEL[r]}
              </option>
            ))}
          </select>
        </Field>
        <div className="flex items-end">
          <Button type="submit" disabled={invite.isPending || !form.email.trim() || !form.name.trim()}>
            Invitar
          </Button>
        </div>
      </form>
      <div className="overflow-x-auto">
        <table className="table table-sm">
          <thead>
            <tr>
              <th>Nombre</th>
              <th>Correo</th>
              <th>Rol</th>
              <th>Estado</th>
              <th>Acciones</th>
            </tr>
          </thead>
          <tbody>
            {(admins.data ?? []).map((a) => (
              <tr key={a.id} data-testid="admin-row">
                <td>{a.name}</td>
                <td>{a.email}</td>
                <td>
                  <select
                    aria-label={`Rol de ${a.name}`}
                    className="select select-sm"
                    value={a.role}
                    disabled={Boolean(a.disabledAt) || changeRole.isPending}
                    onChange={(e) => changeRole.mutate({ id: a.id, role: e.target.value as AdminRole }, { onError: failed })}
                  >
                    {ROLES.map((r) => (
                      <option key={r} value={r}>
                        {ROLE_LABEL[r]}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  {a.disabledAt ? (
                    <Badge variant="destructive" className="badge-sm">
                      Desactivado
                    </Badge>
                  ) : a.enrolled ? (
                    <Badge variant="outline" className="badge-sm">
                      Activo
                    </Badge>
                  ) : (
                    <Badge variant="outline" className="badge-sm">
                      Sin llave registrada
                    </Badge>
                  )}
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
          </tbody>
        </table>
      </div>
    </section>
  )
}
