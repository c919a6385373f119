import type { HTMLAttributes, ReactNode } from 'react'
import { cn } from '@/lib/cn'

/** Alert colours. */
export type AlertVariant = 'default' | 'info' | 'success' | 'warning' | 'destructive'

const variantClass: Record<AlertVariant, string> = {
  default: '',
  info: 'alert-info',
  success: 'alert-success',
  warning: 'alert-warning',
  destructive: 'alert-error',
}

/** Props of Alert. */
export type AlertProps = Omit<HTMLAttributes<HTMLDivElement>, 'title'> & {
  variant?: AlertVariant
  icon?: ReactNode
  title?: ReactNode
}

/** A daisyUI alert with an optional icon and title above its content. */
export function Alert({ variant = 'default', icon, title, className, children, ...props }: AlertProps) {
  return (
    <div role="alert" className={cn('alert alert-soft items-start', variantClass[variant], className)} {...props}>
      {icon}
      <div className="space-y-1">
        {title && <h3 className="font-semibold">{title}</h3>}
        {children && <div className="text-sm">{children}</div>}
      </div>
    </div>
  )
}
