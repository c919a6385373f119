import { z } from '@/lib/zod'
import { digitCount } from '@/lib/phone'

// Form schemas of Mi Perfil › Mis datos, with their Spanish messages.

/** Correcting one's name (same rule as the registration). */
export const nameSchema = z.object({
  nombre: z.string().trim().min(3, 'El nombre completo debe tener al menos 3 caracteres'),
})

/** Values of the name form. */
export type NameValues = z.infer<typeof nameSchema>

/** A new e-mail or a new phone (10 digits typed after +52). */
export const contactSchema = z
  .object({
    channel: z.enum(['email', 'phone']),
    email: z.string().trim(),
    phoneNumber: z.string(),
  })
  .superRefine((v, ctx) => {
    if (v.channel === 'email' && !z.email().safeParse(v.email).success) {
      ctx.addIssue({ code: 'custom', path: ['email'], message: 'Correo electrónico no válido' })
    }
    if (v.channel === 'phone' && digitCount(v.phoneNumber) !== 10) {
      ctx.addIssue({ code: 'custom', path: ['phoneNumber'], message: 'El teléfono debe tener 10 dígitos' })
    }
  })

/** Values of the contact form. */
export type ContactValues = z.infer<typeof contactSchema>
