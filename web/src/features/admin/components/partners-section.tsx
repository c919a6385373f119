import { useEffect } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Ban, Trash2 } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Field, Input } from '@/components/ui/input'
import { useToast } from '@/components/ui/toast'
import { serverMessage } from '@/lib/api-client'
import { usePartnerMutations, usePartners } from '../api/partners'
import { partnerSchema, type PartnerValues } from '../schemas'
import { useAdminUnauthorized } from './use-admin-unauthorized'

const EMPTY: PartnerValues = { partnerName: '', domain: '', createdBy: '', notes: '' }

/** Widget partners (api_keys): list, create, deactivate, delete. */
export function PartnersSection() {
  const partners = usePartners()
  const { create, deactivate, remove } = usePartnerMutations()
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

  return (
    <div className="space-y-6">
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
              <th className="w-[100px]">Acciones</th>
            </tr>
          </thead>
          <tbody>
            {partners.isPending ? (
              <tr>
                <td colSpan={7} className="py-6 text-center">
                  <span className="loading loading-spinner loading-md text-primary" role="status" aria-label="Cargando socios" />
                </td>
              </tr>
            ) : partners.isError ? (
              <tr>
                <td colSpan={7} className="py-6 text-center">
                  <p className="text-error">Error al cargar los socios</p>
                  <Button variant="outline" size="sm" className="mt-3" onClick={() => partners.refetch()}>
                    Reintentar
                  </Button>
                </td>
              </tr>
            ) : partners.data.length === 0 ? (
              <tr>
                <td colSpan={7} className="py-6 text-center text-base-content/70">
                  No hay socios registrados.
                </td>
              </tr>
            ) : (
              partners.data.map((p) => (
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
                  <td className="w-[100px]">
                    <div className="flex gap-1">
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
            )}
          </tbody>
        </table>
      </div>
    </div>
  )
}
