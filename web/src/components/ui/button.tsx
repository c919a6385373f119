import type { ButtonHTMLAttributes } from 'react'
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
}

/** A daisyUI button; type defaults to "button" so it never submits by accident. */
export function Button({ variant = 'default', size = 'default', className, type = 'button', ...props }: ButtonProps) {
  return <button type={type} className={buttonClass(variant, size, className)} {...props} />
}
