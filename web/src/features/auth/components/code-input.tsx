import { Input } from '@/components/ui/input'
import { codeTypingFilter } from '../typing'

/** A centred 6-digit one-time code input that accepts digits only. */
export function CodeInput({ id, value, onChange, disabled }: { id: string; value: string; onChange: (code: string) => void; disabled?: boolean }) {
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
      onChange={(e) => onChange(codeTypingFilter(e.target.value))}
    />
  )
}
