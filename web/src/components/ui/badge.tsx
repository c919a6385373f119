import type { HTMLAttributes } from 'react'
import { cn } from '@/lib/cn'

/** Badge colours. */
export type BadgeVariant = 'default' | 'secondary' | 'success' | 'warning' | 'destructive' | 'outline'

const variantClass: Record<BadgeVariant, string> = {
  default: 'badge-primary',
  secondary: 'badge-secondary',
  success: 'badge-success',
  warning: 'badge-warning',
  destructive: 'badge-error',
  outline: 'badge-outline',
}

/** A daisyUI badge. */
export function Badge({ variant = 'default', className, ...props }: HTMLAttributes<HTMLSpanElement> & { variant?: BadgeVariant }) {
  return <span className={cn('badge gap-1', variantClass[variant], className)} {...props} />
}
