import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Send } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Field, Input } from '@/components/ui/input'
import { MxPhoneField } from '@/components/ui/mx-phone-field'
import { useToast } from '@/components/ui/toast'
import { serverMessage } from '@/lib/api-client'
import { useSendInvitation } from '../api/send-invitation'
import type { Invitation } from '../api/types'
import {
  invitationPhoneFilter,
  sendInvitationDefaults,
  sendInvitationSchema,
  type SendInvitationParsed,
  type SendInvitationValues,
} from '../schemas'

/** The send tab: the invitation form of SPEC §5. */
export function SendInvitationForm({ inviterId, onSent }: { inviterId: string; onSent?: (invitation?: Invitation) => void }) {
  const { toast } = useToast()
  const send = useSendInvitation()
  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<SendInvitationValues, unknown, SendInvitationParsed>({
    resolver: zodResolver(sendInvitationSchema),
    defaultValues: sendInvitationDefaults,
  })

  const onSubmit = (values: SendInvitationParsed) => {
    send.mutate(
      {
        inviterId,
        inviteeName: values.inviteeName,
        inviteeEmail: values.inviteeEmail,
        inviteePhone: values.inviteePhone.replace(/\s+/g, ''),
        type: values.type,
        companyName: values.companyName,
        personalMessage: values.personalMessage,
        expiresInDays: values.expiresInDays,
      },
      {
        onSuccess: (res) => {
          toast({ title: 'Invitación enviada', description: `Enviamos la invitación a ${values.inviteeEmail}.` })
          reset(sendInvitationDefaults)
          onSent?.(res.invitation)
        },
        onError: (err) =>
          toast({ title: 'Error', description: serverMessage(err, 'Error al enviar invitación'), variant: 'destructive' }),
      },
    )
  }

  return (
    <form className="grid gap-4 sm:grid-cols-2" onSubmit={handleSubmit(onSubmit)} noValidate>
      <Field label="Nombre del invitado" htmlFor="inviteeName" error={errors.inviteeName?.message}>
        <Input id="inviteeName" autoComplete="off" placeholder="Ej. Carlos Ruiz" invalid={!!errors.inviteeName} {...register('inviteeName')} />
      </Field>
      <Field label="Correo electrónico" htmlFor="inviteeEmail" error={errors.inviteeEmail?.message}>
        <Input id="inviteeEmail" type="email" autoComplete="off" placeholder="invitado@correo.com" invalid={!!errors.inviteeEmail} {...register('inviteeEmail')} />
      </Field>
      <MxPhoneField
        control={control}
        name="inviteePhone"
        id="inviteePhone"
        label="Teléfono (opcional)"
        hint="10 dígitos; se guarda con +52."
        filter={invitationPhoneFilter}
        autoComplete="off"
        inputMode="numeric"
      />
      <Field label="Tipo de invitación" htmlFor="type" error={errors.type?.message}>
        <select id="type" className={`select w-full ${errors.type ? 'select-error' : ''}`} {...register('type')}>
          <option value="client">Cliente</option>
          <option value="broker">Broker</option>
        </select>
      </Field>
      <Field label="Empresa (opcional)" htmlFor="companyName" error={errors.companyName?.message}>
        <Input id="companyName" autoComplete="organization" placeholder="Ej. Inmobiliaria Sol" invalid={!!errors.companyName} {...register('companyName')} />
      </Field>
      <Field label="Vigencia (días)" htmlFor="expiresInDays" error={errors.expiresInDays?.message} hint="De 1 a 30 días.">
        <Input id="expiresInDays" type="number" min={1} max={30} invalid={!!errors.expiresInDays} {...register('expiresInDays')} />
      </Field>
      <div className="sm:col-span-2">
        <Field label="Mensaje personal (opcional)" htmlFor="personalMessage" error={errors.personalMessage?.message}>
          <textarea
            id="personalMessage"
            rows={4}
            className={`textarea w-full ${errors.personalMessage ? 'textarea-error' : ''}`}
            placeholder="Escribe un mensaje para tu invitado"
            {...register('personalMessage')}
          />
        </Field>
      </div>
      <div className="sm:col-span-2">
        <Button type="submit" className="w-full sm:w-auto" disabled={send.isPending}>
          {send.isPending ? <span className="loading loading-spinner loading-sm" /> : <Send className="size-4" aria-hidden />}
          {send.isPending ? 'Enviando...' : 'Enviar invitación'}
        </Button>
      </div>
    </form>
  )
}
