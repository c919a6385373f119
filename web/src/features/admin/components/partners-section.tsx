import { useState, type FormEvent } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Ban, RotateCcw, Trash2, UserPlus } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button, IconButton } from '@/components/ui/button'
import { Field, Input } from '@/components/ui/input'
import { QueryTable } from '@/components/ui/table'
import { useToast } from '@/components/ui/toast'
import { serverMessage } from '@/lib/api-client'
import { usePartnerMutations, usePartners, type CreatedPartner, type Partner, type PartnerConsoleRole, type PartnerUserInvite } from '../api/partners'
import { partnerSchema, type PartnerValues } from '../schemas'
import { EnrolmentLinkAlert, InviteeFields, isInviteeComplete } from './invitee-fields'
import { NewPartnerKeysDialog } from './new-partner-keys-dialog'
import { useAdminUnauthorizedOn } from './use-admin-unauthorized'

const EMPTY: PartnerValues = { partnerName: '', domain: '', createdBy: '', notes: '' }

const CONSOLE_ROLES: { value: PartnerConsoleRole; label: string }[] = [
  { value: 'propietario', label: 'Propietario' },
  { value: 'desarrollador', label: 'Desarrollador' },
  { value: 'cumplimiento', label: 'Cumplimiento' },
  { value: 'lectura', label: 'Solo lectura' },
]
const EMPTY_INVITE: PartnerUserInvite = { email: '', name: '', role: 'propietario' }

/** Widget partners (api_keys): list, create (its keys shown once), deactivate, reactivate, delete. */
export function PartnersSection() {
  const partners = usePartners()
  const { create, deactivate, activate, remove, inviteUser } = usePartnerMutations()
  const [created, setCreated] = useState<CreatedPartner | null>(null)
  const [inviting, setInviting] = useState<Partner | null>(null)
  const [invite, setInvite] = useState<PartnerUserInvite>(EMPTY_INVITE)
  const [link, setLink] = useState<{ partner: string; name: string; url: string } | null>(null)
  const { toast } = useToast()
  const onUnauthorized = useAdminUnauthorizedOn(partners.error)
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<PartnerValues>({ resolver: zodResolver(partnerSchema), defaultValues: EMPTY })

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
      toast({ title: 'Socio creado', description: `${p.partnerName} (${p.domain})` })
      if (p.keys) setCreated(p)
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
      <NewPartnerKeysDialog partner={created} onClose={() => setCreated(null)} />
      {link && (
        <EnrolmentLinkAlert title={`Enlace de la consola de ${link.partner} para ${link.name}`} url={link.url} testId="partner-user-link">
          Compártelo solo con esa persona. Funciona una vez, durante 7 días, y no se volverá a mostrar. Con él registra su llave de acceso en /socios.
        </EnrolmentLinkAlert>
      )}
      {inviting && (
        <form className="grid gap-3 rounded-box border border-base-300 p-4 sm:grid-cols-4" onSubmit={onInvite} aria-label={`Invitar a la consola de ${inviting.partnerName}`}>
          <p className="font-medium sm:col-span-4">Invitar a la consola de {inviting.partnerName}</p>
          <InviteeFields idPrefix="partner-user" value={invite} onChange={setInvite} roleLabel="Rol en la consola" roles={CONSOLE_ROLES} />
          <div className="flex items-end gap-2">
            <Button type="submit" disabled={inviteUser.isPending || !isInviteeComplete(invite)} pending={inviteUser.isPending}>
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
          <Button type="submit" disabled={create.isPending} pending={create.isPending}>
            Crear Socio
          </Button>
        </div>
      </form>
      <QueryTable
        columns={['Socio', 'Dominio', 'Clave', 'Permisos', 'Solicitudes', 'Estado', { label: 'Acciones', className: 'w-[140px]' }]}
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
                <IconButton
                  icon={UserPlus}
                  label={`Invitar a la consola de ${p.partnerName}`}
                  title="Invitar a su consola"
                  disabled={!p.isActive}
                  onClick={() => {
                    setLink(null)
                    setInviting(p)
                  }}
                />
                {p.isActive ? (
                  <IconButton
                    icon={Ban}
                    label={`Desactivar ${p.partnerName}`}
                    title="Desactivar"
                    disabled={deactivate.isPending}
                    onClick={() => deactivate.mutate(p.id, { onError: fail })}
                  />
                ) : (
                  <IconButton
                    icon={RotateCcw}
                    label={`Reactivar ${p.partnerName}`}
                    title="Reactivar"
                    disabled={activate.isPending}
                    onClick={() => activate.mutate(p.id, { onError: fail })}
                  />
                )}
                <IconButton
                  icon={Trash2}
                  label={`Eliminar ${p.partnerName}`}
                  title="Eliminar"
                  className="text-error"
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(p.id, { onError: fail })}
                />
              </div>
            </td>
          </tr>
        ))}
      </QueryTable>
    </div>
  )
}
