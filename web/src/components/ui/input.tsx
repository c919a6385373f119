import type { InputHTMLAttributes, Ref } from 'react'
import { cn } from '@/lib/cn'

/** Props of Input. */
export type InputProps = InputHTMLAttributes<HTMLInputElement> & {
  ref?: Ref<HTMLInputElement>
  invalid?: boolean
}

/** A full-width daisyUI text input; red when invalid. */
export function Input({ className, invalid, ...props }: InputProps) {
  return (
    <input
      className={cn('input w-full', invalid && 'input-error', className)}
      aria-invalid={invalid || undefined}
      {...props}
    />
  )
}

/** Props of Field. */
export type FieldProps = {
  label: string
  htmlFor: string
  error?: string
  hint?: string
  children: React.ReactNode
}

/** A labelled form row with an optional hint and error message. */
export function Field({ label, htmlFor, error, hint, children }: FieldProps) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={htmlFor} className="block text-sm font-medium">
        {label}
      </label>
      {children}
      {hint && !error && <p className="text-xs text-base-content/70">{hint}</p>}
      {error && (
        <p className="text-sm text-error" role="status">
          {error}
        </p>
      )}
    </div>
  )
}
