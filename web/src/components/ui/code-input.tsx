import { Input } from './input'

/** Keeps only digits, at most 6, while a one-time code is typed. */
export function codeDigitsFilter(value: string): string {
  return value.replace(/\D/g, '').slice(0, 6)
}

/** A centred 6-digit one-time code input that accepts digits only. */
export function CodeInput({
  id,
  value,
  onChange,
  disabled,
  invalid,
}: {
  id: string
  value: string
  onChange: (code: string) => void
  disabled?: boolean
  invalid?: boolean
}) {
  return (
    <Input
      id={id}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      placeholder="000000"
      className="input-lg text-center font-mono text-2xl tracking-[0.5em] indent-[0.5em]"
      value={value}
      disabled={disabled}
      invalid={invalid}
      onChange={(e) => onChange(codeDigitsFilter(e.target.value))}
    />
  )
}
