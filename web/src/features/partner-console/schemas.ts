import { z } from '@/lib/zod'

// The console's forms, with the server's Spanish messages (api/partner_console*.go).

/** Inviting a person to the platform's team. */
export const inviteSchema = z.object({
  email: z.email({ error: 'Email inválido' }),
  name: z.string().trim().min(2, 'Escribe el nombre (de 2 a 120 caracteres)').max(120, 'Escribe el nombre (de 2 a 120 caracteres)'),
  role: z.enum(['propietario', 'desarrollador', 'lectura'], { error: 'Rol no válido: propietario, desarrollador o lectura' }),
})

/** Values of the invitation form. */
export type InviteValues = z.infer<typeof inviteSchema>

/** The platform's allowed origin: scheme, host and port (the server normalizes it). */
export const originSchema = z.object({
  origin: z.string().trim().min(3, 'Escribe el origen de tu sitio (ejemplo: https://www.casalista.mx).'),
})

/** The webhook's URL; empty removes the webhook. */
export const webhookSchema = z.object({
  url: z
    .string()
    .trim()
    .max(2000, 'La URL del webhook debe ser https://… de un servidor público (hasta 2000 caracteres).')
    .refine((v) => v === '' || /^https?:\/\/[^\s/]+/i.test(v), 'La URL del webhook debe ser https://… de un servidor público (hasta 2000 caracteres).'),
})
