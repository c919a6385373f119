import type { FormEvent } from 'react'
import { z } from '@/lib/zod'

// A typed one-time code, shared by the forms that confirm with one (Mi Perfil, passkeys).

/** A one-time code: exactly 6 digits. */
export const codeSchema = z.string().regex(/^\d{6}$/, 'El código debe tener 6 dígitos')

/** The submit of a form that sends a typed code: send(code) when it is 6 digits, else onInvalid(the rule's message). */
export function codeSubmit(code: string, onInvalid: (message: string | undefined) => void, send: (code: string) => void) {
  return (e: FormEvent) => {
    e.preventDefault()
    const parsed = codeSchema.safeParse(code)
    if (!parsed.success) {
      onInvalid(parsed.error.issues[0]?.message)
      return
    }
    send(parsed.data)
  }
}
