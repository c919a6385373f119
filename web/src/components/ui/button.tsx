import type { ButtonHTMLAttributes } from 'react'
import type { LucideIcon } from 'lucide-react'
import { cn } from '@/lib/cn'

/** Button styles of SPEC §9. */
export type ButtonVariant = 'default' | 'destructive' | 'outline' | 'secondary' | 'ghost' | 'link'

/** Button sizes of SPEC §9. */
export type ButtonSize = 'default' | 'sm' | 'lg' | 'icon'

const variantClass: Record<ButtonVariant, string> = {
  default: 'btn-primary',
  destructive: 'btn-error',
  outline: 'btn-outline',
  secondary: 'btn-secondary',
  ghost: 'btn-ghost',
  link: 'btn-link',
}

const sizeClass: Record<ButtonSize, string> = {
  default: '',
  sm: 'btn-sm',
  lg: 'btn-lg',
  icon: 'btn-square',
}

/** The daisyUI classes of a button look, for links styled as buttons. */
export function buttonClass(variant: ButtonVariant = 'default', size: ButtonSize = 'default', className?: string): string {
  return cn('btn', variantClass[variant], sizeClass[size], className)
}

/** Props of Button. */
export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant
  size?: ButtonSize
  /** Shows a spinner before the text while the action runs (disabled stays the caller's to say). */
  pending?: boolean
}

/** A daisyUI button; type defaults to "button" so it never submits by accident. */
export function Button({ variant = 'default', size = 'default', className, type = 'button', pending = false, children, ...props }: ButtonProps) {
  return (
    <button type={type} className={buttonClass(variant, size, className)} {...props}>
      {pending && <span className="loading loading-spinner loading-sm" />}
      {children}
    </button>
  )
}

/** Props of IconButton. */
export type IconButtonProps = Omit<ButtonProps, 'children' | 'variant' | 'size'> & {
  icon: LucideIcon
  /** What the button does, for screen readers. */
  label: string
}

/** A small square ghost button that shows only an icon; label names it for screen readers. */
export function IconButton({ icon: Icon, label, className, ...props }: IconButtonProps) {
  return (
    <Button variant="ghost" size="icon" className={cn('btn-sm', className)} aria-label={label} {...props}>
      <Icon className="size-4" aria-hidden />
    </Button>
  )
}
