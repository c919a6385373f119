import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { UserPlus } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { EnrolmentBadge, type EnrolmentBadgeLook, type EnrolmentState } from '@/components/ui/enrolment-badge'
import { Field, Input, Select } from '@/components/ui/input'
import { useToast } from '@/components/ui/toast'
import { serverMessage } from '@/lib/api-client'
import { formatDateTimeMx } from '@/lib/format'
import { useConsoleSignedOut, useSignedOutOn } from '../api/get-console-me'
import { useTeam, useTeamMutations } from '../api/team'
import { can, ROLE_HINT, ROLE_LABEL } from '../labels'
import { inviteSchema, type InviteValues } from '../schemas'
import type { ConsoleMe, EnrolmentLink, PartnerRole, PartnerUser } from '../types'
import { SecretDialog, type ShownSecret } from './secret-dialog'
import { ConsoleTable, TimeZoneNote } from './table-message'

const ROLES: PartnerRole[] = ['propietario', 'desarrollador', 'cumplimiento', 'lectura']
const ROLE_OPTIONS = ROLES.map((r) => ({ value: r, label: ROLE_LABEL[r] }))
const STATE_LOOKS: Record<EnrolmentState, EnrolmentBadgeLook> = {
  disabled: { variant: 'outline', label: 'Desactivada' },
  enrolled: { variant: 'success', label: 'Activa' },
  pending: { variant: 'warning', label: 'Sin llave registrada' },
}
const EMPTY: InviteValues = { email: '', name: '', role: 'desarrollador' }

function linkShown(res: EnrolmentLink): ShownSecret {
  return {
    title: `Enlace de registro para ${res.user.name}`,
    label: 'el enlace',
    value: res.enrolmentUrl,
    warning: 'Guárdalo ahora: no volverás a verlo.',
    note: `Compártelo solo con ${res.user.name} (${res.user.email}). Funciona una vez, hasta el ${formatDateTimeMx(res.expiresAt)} (hora de la Ciudad de México).`,
  }
}

/** "Equipo": who can use the console; a propietario invites, changes roles, issues new links and disables. */
export function TeamTab({ me }: { me: ConsoleMe }) {
  const team = useTeam()
  const { invite, setRole, disable, newLink } = useTeamMutations()
  const { toast } = useToast()
  const signedOut = useConsoleSignedOut()
  useSignedOutOn(team.error)
  const [shown, setShown] = useState<ShownSecret | null>(null)
  const [disabling, setDisabling] = useState<PartnerUser | null>(null)
  const manage = can(me, 'team')
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<InviteValues>({ resolver: zodResolver(inviteSchema), defaultValues: EMPTY })

  const fail = (err: unknown) => {
    if (!signedOut(err)) toast({ title: 'No se pudo', description: serverMessage(err, 'Intenta de nuevo.'), variant: 'destructive' })
  }

  const onInvite = (values: InviteValues) =>
    invite.mutate(values, {
      onSuccess: (res) => {
        setShown(linkShown(res))
        reset(EMPTY)
      },
      onError: fail,
    })

  return (
    <div className="space-y-6">
      {manage && (
        <section className="rounded-box border border-base-300 p-4" aria-labelledby="invite-title">
          <h2 id="invite-title" className="font-semibold">
            Invitar a una persona
          </h2>
          <p className="text-sm text-base-content/70">Recibirá un enlace para registrar su llave de acceso. Funciona una vez, durante 7 días.</p>
          <form className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_auto_auto]" onSubmit={handleSubmit(onInvite)} noValidate>
            <Field label="Correo" htmlFor="invite-email" error={errors.email?.message}>
              <Input id="invite-email" type="email" autoComplete="off" invalid={!!errors.email} {...register('email')} />
            </Field>
            <Field label="Nombre" htmlFor="invite-name" error={errors.name?.message}>
              <Input id="invite-name" autoComplete="off" invalid={!!errors.name} {...register('name')} />
            </Field>
            <Field label="Rol" htmlFor="invite-role" error={errors.role?.message}>
              <Select id="invite-role" className="w-full" options={ROLE_OPTIONS} {...register('role')} />
            </Field>
            <div className="flex items-end">
              <Button type="submit" className="w-full sm:w-auto" disabled={invite.isPending}>
                {invite.isPending ? <span className="loading loading-spinner loading-sm" /> : <UserPlus className="size-4" aria-hidden />}
                Invitar
              </Button>
            </div>
          </form>
          <ul className="mt-3 space-y-0.5 text-xs text-base-content/60">
            {ROLES.map((r) => (
              <li key={r}>
                <strong>{ROLE_LABEL[r]}:</strong> {ROLE_HINT[r]}
              </li>
            ))}
          </ul>
        </section>
      )}

      <section className="space-y-3" aria-labelledby="team-title">
        <h2 id="team-title" className="text-lg font-semibold">
          Equipo
        </h2>
        <ConsoleTable
          columns={['Persona', 'Rol', 'Estado', 'Último acceso', manage && { label: 'Acciones', className: 'text-right' }]}
          query={team}
          errorText="No pudimos cargar tu equipo."
          isEmpty={!team.data?.length}
          empty={<>Nadie más usa la consola todavía.</>}
        >
          {(team.data ?? []).map((u) => {
            const self = u.id === me.user.id
            const off = Boolean(u.disabledAt)
            return (
              <tr key={u.id} data-testid="team-row" className={off ? 'opacity-60' : undefined}>
                <td className="min-w-56">
                  <div className="font-medium">
                    {u.name}
                    {self && <span className="ml-1 text-xs text-base-content/60">(tú)</span>}
                  </div>
                  <div className="text-xs break-words text-base-content/70">{u.email}</div>
                  {u.invitedBy && <div className="text-xs text-base-content/50">Invitó: {u.invitedBy}</div>}
                </td>
                <td>
                  {manage && !off ? (
                    <Select
                      aria-label={`Rol de ${u.name}`}
                      className="select-sm w-40"
                      options={ROLE_OPTIONS}
                      value={u.role}
                      disabled={setRole.isPending}
                      onChange={(e) =>
                        setRole.mutate(
                          { id: u.id, role: e.target.value as PartnerRole },
                          { onSuccess: (a) => toast({ title: 'Rol cambiado', description: `${a.name}: ${ROLE_LABEL[a.role]}.` }), onError: fail },
                        )
                      }
                    />
                  ) : (
                    <span className="whitespace-nowrap">{ROLE_LABEL[u.role]}</span>
                  )}
                </td>
                <td>
                  <EnrolmentBadge account={u} looks={STATE_LOOKS} className="badge-sm whitespace-nowrap" />
                </td>
                <td className="whitespace-nowrap">{u.lastSignInAt ? formatDateTimeMx(u.lastSignInAt) : 'Nunca'}</td>
                {manage && (
                  <td className="text-right">
                    {!off && (
                      <div className="flex justify-end gap-1">
                        <Button
                          variant="ghost"
                          size="sm"
                          disabled={newLink.isPending}
                          onClick={() => newLink.mutate(u.id, { onSuccess: (res) => setShown(linkShown(res)), onError: fail })}
                          aria-label={`Nuevo enlace para ${u.name}`}
                        >
                          Nuevo enlace
                        </Button>
                        {!self && (
                          <Button variant="ghost" size="sm" className="text-error" onClick={() => setDisabling(u)} aria-label={`Desactivar a ${u.name}`}>
                            Desactivar
                          </Button>
                        )}
                      </div>
                    )}
                  </td>
                )}
              </tr>
            )
          })}
        </ConsoleTable>
        <TimeZoneNote />
      </section>

      <SecretDialog secret={shown} onClose={() => setShown(null)} />
      <ConfirmDialog
        open={disabling !== null}
        title={`¿Desactivar a ${disabling?.name ?? ''}?`}
        confirmLabel="Desactivar"
        pending={disable.isPending}
        onCancel={() => setDisabling(null)}
        onConfirm={() =>
          disabling &&
          disable.mutate(disabling.id, {
            onSuccess: (u) => toast({ title: 'Cuenta desactivada', description: `${u.name} ya no puede entrar a la consola.` }),
            onError: fail,
            onSettled: () => setDisabling(null),
          })
        }
      >
        Cerraremos sus sesiones y su llave de acceso dejará de abrir la consola. No se puede deshacer: para volver, invítala de nuevo
        con otro correo o pide ayuda a soporte.
      </ConfirmDialog>
    </div>
  )
}
