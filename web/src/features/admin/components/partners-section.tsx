import { useEffect, useState, type FormEvent } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Ban, Trash2, UserPlus } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { QueryRows } from '@/components/ui/query-rows'
import { Field, Input } from '@/components/ui/input'
import { useToast } from '@/components/ui/toast'
import { serverMessage } from '@/lib/api-client'
import { usePartnerMutations, usePartners, type Partner, type PartnerConsoleRole, type PartnerUserInvite } from '../api/partners'
import { partnerSchema, type PartnerValues } from '../schemas'
import { useAdminUnauthorized } from './use-admin-unauthorized'

const EMPTY: PartnerValues = { partnerName: '', domain: '', createdBy: '', notes: '' }

const CONSOLE_ROLES: { value: PartnerConsoleRole; label: string }[] = [
  { value: 'propietario', label: 'Propietario' },
  { value: 'desarrollador', label: 'Desarrollador' },
  { value: 'lectura', label: 'Solo lectura' },
]
const EMPTY_INVITE: PartnerUserInvite = { email: '', name: '', role: 'propietario' }

/** Widget partners (api_keys): list, create, deactivate, delete. */
export function PartnersSection() {
  const partners = usePartners()
  const { create, deactivate, remove, inviteUser } = usePartnerMutations()
  const [inviting, setInviting] = useState<Partner | null>(null)
  const [invite, setInvite] = useState<PartnerUserInvite>(EMPTY_INVITE)
  const [link, setLink] = useState<{ partner: string; name: string; url: string } | null>(null)
  const { toast } = useToast()
  const onUnauthorized = useAdminUnauthorized()
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<PartnerValues>({ resolver: zodResolver(partnerSchema), defaultValues: EMPTY })

  useEffect(() => {
    if (partners.error) onUnauthorized(partners.error)
  }, [partners.error, onUnauthorized])

  const fail = (err: unknown) => {
    if (onUnauthorized(err)) return
    toast({ title: 'Error', description: serverMessage(err, err instanceof Error ? err.message : 'Error'), variant: 'destructive' })
  }

  const onSubmit = async (values: PartnerValues) => {
    try {
      const p = await create.mutateAsync({
        partnerName: values.partnerName,
        domain: values.domain,
        ...(values.createdBy ? { createdBy: values.createdBy } : {}),
        ...(values.notes ? { notes: values.notes } : {}),
      })
      toast({ title: 'Socio creado', description: `${p.partnerName} (${p.domain}) · clave ${p.keyId}` })
      reset(EMPTY)
    } catch (err) {
      fail(err)
    }
  }

  const onInvite = (e: FormEvent) => {
    e.preventDefault()
    if (!inviting) return
    const partner = inviting
    inviteUser.mutate(
      { partnerId: partner.id, ...invite },
      {
        onSuccess: (res) => {
          setLink({ partner: partner.partnerName, name: res.user.name, url: res.enrolmentUrl })
          setInviting(null)
          setInvite(EMPTY_INVITE)
        },
        onError: fail,
      },
    )
  }

  return (
    <div className="space-y-6">
      {link && (
        <Alert title={`Enlace de la consola de ${link.partner} para ${link.name}`} data-testid="partner-user-link">
          <p>Compártelo solo con esa persona. Funciona una vez, durante 7 días, y no se volverá a mostrar. Con él registra su llave de acceso en /socios.</p>
          <code className="mt-2 block break-all">{link.url}</code>
        </Alert>
      )}
      {inviting && (
        <form className="grid gap-3 rounded-box border border-base-300 p-4 sm:grid-cols-4" onSubmit={onInvite} aria-label={`Invitar a la consola de ${inviting.partnerName}`}>
          <p className="font-medium sm:col-span-4">Invitar a la consola de {inviting.partnerName}</p>
          <Field label="Correo" htmlFor="partner-user-email">
            <Input id="partner-user-email" type="email" value={invite.email} onChange={(e) => setInvite({ ...invite, email: e.target.value })} />
          </Field>
          <Field label="Nombre" htmlFor="partner-user-name">
            <Input id="partner-user-name" value={invite.name} onChange={(e) => setInvite({ ...invite, name: e.target.value })} />
          </Field>
          <Field label="Rol en la consola" htmlFor="partner-user-role">
            <select
              id="partner-user-role"
              className="select w-full"
              value={invite.role}
              onChange={(e) => setInvite({ ...invite, role: e.target.value as PartnerConsoleRole })}
            >
              {CONSOLE_ROLES.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>
          </Field>
          <div className="flex items-end gap-2">
            <Button type="submit" disabled={inviteUser.isPending || !invite.email.trim() || !invite.name.trim()}>
              {inviteUser.isPending && <span className="loading loading-spinner loading-sm" />}
              Invitar
            </Button>
            <Button variant="ghost" onClick={() => setInviting(null)}>
              Cancelar
            </Button>
          </div>
        </form>
      )}
      <form className="grid gap-4 sm:grid-cols-2" onSubmit={handleSubmit(onSubmit)} noValidate>
        <Field label="Nombre del socio" htmlFor="partner-name" error={errors.partnerName?.message}>
          <Input id="partner-name" placeholder="CasaLista" invalid={!!errors.partnerName} {...register('partnerName')} />
        </Field>
        <Field label="Dominio" htmlFor="partner-domain" error={errors.domain?.message} hint="Origen autorizado, p. ej. https://www.casalista.mx">
          <Input id="partner-domain" placeholder="https://www.casalista.mx" invalid={!!errors.domain} {...register('domain')} />
        </Field>
        <Field label="Creado por (opcional)" htmlFor="partner-created-by">
          <Input id="partner-created-by" {...register('createdBy')} />
        </Field>
        <Field label="Notas (opcional)" htmlFor="partner-notes">
          <Input id="partner-notes" {...register('notes')} />
        </Field>
        <div className="sm:col-span-2">
          <Button type="submit" disabled={create.isPending}>
            {create.isPending && <span className="loading loading-spinner loading-sm" />}
            Crear Socio
          </Button>
        </div>
      </form>
      <div className="overflow-x-auto rounded-box border border-base-300">
        <table className="table">
          <thead>
            <tr>
              <th>Socio</th>
              <th>Dominio</th>
              <th>Clave</th>
              <th>Permisos</th>
              <th>Solicitudes</th>
              <th>Estado</th>
              <th className="w-[140px]">Acciones</th>
            </tr>
          </thead>
          <tbody>
            <QueryRows
              columns={7}
              query={partners}
              loadingLabel="Cargando socios"
              error="Error al cargar los socios"
              isEmpty={!partners.data?.length}
              empty="No hay socios registrados."
            >
              {(partners.data ?? []).map((p) => (
                <tr key={p.id} data-testid="partner-row">
                  <td className="font-medium">
                    {p.partnerName}
                    {p.notes && <div className="text-xs text-base-content/70">{p.notes}</div>}
                  </td>
                  <td className="font-mono text-sm">{p.domain}</td>
                  <td className="font-mono text-xs">{p.keyId}</td>
                  <td className="text-sm">{p.permissions.join(', ')}</td>
                  <td>{p.requestsCount}</td>
                  <td>{p.isActive ? <Badge variant="success">Activo</Badge> : <Badge variant="outline">Inactivo</Badge>}</td>
                  <td className="w-[140px]">
                    <div className="flex gap-1">
                      <Button
                        variant="ghost"
                        size="icon"
                        className="btn-sm"
                        disabled={!p.isActive}
                        onClick={() => {
                          setLink(null)
                          setInviting(p)
                        }}
                        aria-label={`Invitar a la consola de ${p.partnerName}`}
                        title="Invitar a su consola"
                      >
                        <UserPlus className="size-4" aria-hidden />
                      </Button>
                      <Button
                        variant="ghost"
                        size="icon"
                        className="btn-sm"
                        disabled={!p.isActive || deactivate.isPending}
                        onClick={() => deactivate.mutate(p.id, { onError: fail })}
                        aria-label={`Desactivar ${p.partnerName}`}
                        title="Desactivar"
                      >
                        <Ban className="size-4" aria-hidden />
                      </Button>
                      <Button
                        variant="ghost"
                        size="icon"
                        className="btn-sm text-error"
                        disabled={remove.isPending}
                        onClick={() => remove.mutate(p.id, { onError: fail })}
                        aria-label={`Eliminar ${p.partnerName}`}
                        title="Eliminar"
                      >
                        <Trash2 className="size-4" aria-hidden />
                      </Button>
                    </div>
                  </td>
                </tr>
              ))
}
            </QueryRows>
          </tbody>
        </table>
      </div>
    </div>
  )
}
