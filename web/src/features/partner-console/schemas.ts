import { z } from '@/lib/zod'

// The console's forms, with the server's Spanish messages (api/partner_console*.go).

/** Inviting a person to the platform's team. */
export const inviteSchema = z.object({
  email: z.email({ error: 'Email inválido' }),
  name: z.string().trim().min(2, 'Escribe el nombre (de 2 a 120 caracteres)').max(120, 'Escribe el nombre (de 2 a 120 caracteres)'),
  role: z.enum(['propietario', 'desarrollador', 'cumplimiento', 'lectura'], {
    error: 'Rol no válido: propietario, desarrollador, cumplimiento o lectura',
  }),
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

/** An LFPIORPI operation, with the server's messages (api/partner_operations.go). */
export const operationSchema = z.object({
  kind: z.enum(['compraventa', 'intermediacion', 'desarrollo', 'arrendamiento'], {
    error: 'Tipo de operación no válido: compraventa, intermediacion, desarrollo o arrendamiento',
  }),
  amount: z
    .string()
    .trim()
    .regex(/^[0-9]{1,15}(\.[0-9]{1,2})?$/, 'El monto debe ser una cantidad en pesos con hasta dos decimales, sin comas (por ejemplo 3500000.00)')
    .refine((v) => /[1-9]/.test(v), 'El monto debe ser mayor que cero'),
  cash: z
    .string()
    .trim()
    .regex(/^([0-9]{1,15}(\.[0-9]{1,2})?)?$/, 'El monto en efectivo debe ser una cantidad en pesos con hasta dos decimales, sin comas'),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'La fecha debe tener la forma AAAA-MM-DD'),
  propertyReference: z
    .string()
    .trim()
    .min(1, 'La referencia del inmueble debe tener de 1 a 200 caracteres')
    .max(200, 'La referencia del inmueble debe tener de 1 a 200 caracteres'),
  businessRole: z.enum(['vendedor', 'comprador', 'intermediario', 'desarrollador', 'arrendador', 'arrendatario'], {
    error: 'Papel no válido: vendedor, comprador, intermediario, desarrollador, arrendador o arrendatario',
  }),
  people: z
    .array(z.object({ role: z.enum(['comprador', 'vendedor', 'arrendador', 'arrendatario', 'otro']), sessionId: z.string() }))
    .min(1, 'Indica al menos una persona de la operación'),
})

/** Values of the operation form. */
export type OperationValues = z.infer<typeof operationSchema>
