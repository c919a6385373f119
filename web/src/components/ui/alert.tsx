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
  /** The title's heading level: 3 under a section heading (the default), 2 right under the page's h1. */
  titleLevel?: 2 | 3
}

/** A daisyUI alert with an optional icon and title above its content. */
export function Alert({ variant = 'default', icon, title, titleLevel = 3, className, children, ...props }: AlertProps) {
  const Title = titleLevel === 2 ? 'h2' : 'h3'
  return (
    <div role="alert" className={cn('alert alert-soft items-start', variantClass[variant], className)} {...props}>
      {icon}
      <div className="space-y-1">
        {title && <Title className="font-semibold">{title}</Title>}
        {children && <div className="text-sm">{children}</div>}
      </div>
    </div>
  )
}
