import type { InputHTMLAttributes, ReactNode, Ref, SelectHTMLAttributes } from 'react'
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

/** One choice of a Select. */
export type SelectOption = { value: string | number; label: string }

/** Props of Select: a select's attributes, its options, and any option after them (children). */
export type SelectProps = SelectHTMLAttributes<HTMLSelectElement> & {
  ref?: Ref<HTMLSelectElement>
  options: readonly SelectOption[]
  children?: ReactNode
}

/** A daisyUI select listing its options in order. */
export function Select({ options, className, children, ...props }: SelectProps) {
  return (
    <select className={cn('select', className)} {...props}>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
      {children}
    </select>
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

/** Props of MxPhoneInput: a react-hook-form Controller field, and how typing is filtered. */
export type MxPhoneInputProps = {
  id: string
  field: { name: string; ref: Ref<HTMLInputElement>; value: string; onBlur: () => void; onChange: (value: string) => void }
  invalid: boolean
  /** Keeps what may be typed (digits, at most 10). */
  filter: (raw: string) => string
  autoComplete: string
  inputMode?: 'tel' | 'numeric'
}

/** A Mexican phone: a fixed +52 before the 10 digits that are typed; red when invalid. */
export function MxPhoneInput({ id, field, invalid, filter, autoComplete, inputMode = 'tel' }: MxPhoneInputProps) {
  return (
    <label className={`input w-full ${invalid ? 'input-error' : ''}`}>
      <span className="text-base-content/70">+52</span>
      <input
        id={id}
        type="tel"
        inputMode={inputMode}
        autoComplete={autoComplete}
        placeholder="55 1234 5678"
        aria-invalid={invalid || undefined}
        name={field.name}
        ref={field.ref}
        value={field.value}
        onBlur={field.onBlur}
        onChange={(e) => field.onChange(filter(e.target.value))}
      />
    </label>
  )
}
