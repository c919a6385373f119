import { z } from '@/lib/zod'
import { digitCount, mxPhoneTypingFilter } from '@/lib/phone'

// Form schemas of SPEC §5 'Send invitation' and 'Accept invitation'.

/** The invitation phone input rule (SPEC §5): only digits and spaces, at most 10 digits. */
export const invitationPhoneFilter = mxPhoneTypingFilter

/** The send form. */
export const sendInvitationSchema = z.object({
  inviteeName: z.string().trim().min(2, 'Nombre del invitado requerido'),
  inviteeEmail: z.string().trim().pipe(z.email('Email válido requerido')),
  inviteePhone: z
    .string()
    .refine((v) => v.trim() === '' || digitCount(v) === 10, 'El teléfono debe tener 10 dígitos'),
  type: z.enum(['client', 'broker'], { error: "Tipo debe ser 'client' o 'broker'" }),
  companyName: z.string().trim().max(200, 'El nombre de la empresa no puede exceder 200 caracteres'),
  personalMessage: z.string().trim().max(1000, 'El mensaje personal no puede exceder 1000 caracteres'),
  expiresInDays: z.coerce
    .number<string | number>()
    .int('La vigencia debe ser de 1 a 30 días')
    .min(1, 'La vigencia debe ser de 1 a 30 días')
    .max(30, 'La vigencia debe ser de 1 a 30 días'),
})

/** Values of the send form as typed. */
export type SendInvitationValues = z.input<typeof sendInvitationSchema>

/** Values of the send form once checked. */
export type SendInvitationParsed = z.output<typeof sendInvitationSchema>

/** Empty send form: a client invitation valid for 7 days (SPEC §9). */
export const sendInvitationDefaults: SendInvitationValues = {
  inviteeName: '',
  inviteeEmail: '',
  inviteePhone: '',
  type: 'client',
  companyName: '',
  personalMessage: '',
  expiresInDays: 7,
}

/** The acceptance form. */
export const acceptInvitationSchema = z.object({
  nombre: z.string().trim().min(2, 'Nombre requerido'),
  phone_number: z.string().refine((v) => digitCount(v) >= 10, 'Teléfono requerido'),
})

/** Values of the acceptance form. */
export type AcceptInvitationValues = z.infer<typeof acceptInvitationSchema>
