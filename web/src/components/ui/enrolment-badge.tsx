import { Badge, type BadgeVariant } from './badge'

/** Where an account that signs in with a passkey from an enrolment link stands: disabled, enrolled, or still without its key. */
export type EnrolmentState = 'disabled' | 'enrolled' | 'pending'

/** How a table shows one state: the badge's colour and its words. */
export type EnrolmentBadgeLook = { variant: BadgeVariant; label: string }

/** An account's EnrolmentState: disabled wins over enrolled. */
export function enrolmentState(account: { disabledAt?: string | null; enrolled: boolean }): EnrolmentState {
  if (account.disabledAt) return 'disabled'
  return account.enrolled ? 'enrolled' : 'pending'
}

/** The badge of an account's EnrolmentState, as looks says (each table words and colours it its own way). */
export function EnrolmentBadge({
  account,
  looks,
  className,
}: {
  account: { disabledAt?: string | null; enrolled: boolean }
  looks: Record<EnrolmentState, EnrolmentBadgeLook>
  className?: string
}) {
  const { variant, label } = looks[enrolmentState(account)]
  return (
    <Badge variant={variant} className={className}>
      {label}
    </Badge>
  )
}
