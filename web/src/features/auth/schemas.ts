import { z } from '@/lib/zod'

// Form schemas with the Spanish messages of SPEC §5. The sign-in and registration screens load
// this module (and zod with it) after they paint, through ./validation.ts (issue 38); what the
// screens need while typing lives in ./typing.ts.

/** The registration form as the screen checks it (8 characters; the server enforces 10 digits). */
export const registerSchema = z.object({
  fullName: z.string().trim().min(3, 'El nombre completo debe tener al menos 3 caracteres'),
  email: z.string().trim().pipe(z.email('Correo electrónico no válido')),
  phoneNumber: z
    .string()
    .min(8, 'El número de teléfono debe tener al menos 8 dígitos')
    .regex(/^[\d\s+]+$/, 'El número debe contener solo números, espacios y el signo +'),
})

/** Values of the registration form. */
export type RegisterValues = z.infer<typeof registerSchema>

/** The registration code step: exactly 6 characters. */
export const registrationCodeSchema = z.object({
  code: z.string().length(6, 'El código debe tener 6 dígitos'),
})

/** The sign-in form: e-mail, phone or both. */
export const loginSchema = z
  .object({
    email: z
      .string()
      .trim()
      .refine((v) => v === '' || z.email().safeParse(v).success, 'Correo electrónico no válido'),
    phoneNumber: z.string().trim(),
  })
  .refine((v) => v.email !== '' || v.phoneNumber !== '', {
    message: 'Debes proporcionar email o número de teléfono',
    path: ['email'],
  })

/** Values of the sign-in form. */
export type LoginValues = z.infer<typeof loginSchema>

/** The sign-in code: digits only, exactly 6. */
export const loginCodeSchema = z.object({
  code: z.string().regex(/^\d{6}$/, 'Por favor ingresa el código de 6 dígitos'),
})
