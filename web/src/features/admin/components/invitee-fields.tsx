import type { ReactNode } from 'react'
import { Alert } from '@/components/ui/alert'
import { Field, Input, Select, type SelectOption } from '@/components/ui/input'

/** A person invited by e-mail: who they are and the role they get. */
export type Invitee<Role extends string> = { email: string; name: string; role: Role }

/** Whether an invitation can be sent: an e-mail and a name are typed. */
export function isInviteeComplete(invitee: Invitee<string>): boolean {
  return invitee.email.trim() !== '' && invitee.name.trim() !== ''
}

/** The e-mail, name and role fields of an invitation form; their ids start with idPrefix. */
export function InviteeFields<Role extends string>({
  idPrefix,
  value,
  onChange,
  roleLabel,
  roles,
}: {
  idPrefix: string
  value: Invitee<Role>
  onChange: (value: Invitee<Role>) => void
  roleLabel: string
  roles: readonly SelectOption[]
}) {
  return (
    <>
      <Field label="Correo" htmlFor={`${idPrefix}-email`}>
        <Input id={`${idPrefix}-email`} type="email" value={value.email} onChange={(e) => onChange({ ...value, email: e.target.value })} />
      </Field>
      <Field label="Nombre" htmlFor={`${idPrefix}-name`}>
        <Input id={`${idPrefix}-name`} value={value.name} onChange={(e) => onChange({ ...value, name: e.target.value })} />
      </Field>
      <Field label={roleLabel} htmlFor={`${idPrefix}-role`}>
        <Select
          id={`${idPrefix}-role`}
          className="w-full"
          options={roles}
          value={value.role}
          onChange={(e) => onChange({ ...value, role: e.target.value as Role })}
        />
      </Field>
    </>
  )
}

/** An invitation's one-time link, shown the one time the server gives it; children say how it works. */
export function EnrolmentLinkAlert({ title, url, testId, children }: { title: string; url: string; testId: string; children: ReactNode }) {
  return (
    <Alert title={title} data-testid={testId}>
      <p>{children}</p>
      <code className="mt-2 block break-all">{url}</code>
    </Alert>
  )
}
