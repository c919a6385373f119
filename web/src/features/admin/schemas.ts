import { z } from '@/lib/zod'

// Admin form schemas with the Spanish messages of SPEC §5 and the options of DECISIONS.md.

/** The origins an administrator may choose (DECISIONS.md), default Otro. */
export const ADMIN_ORIGINS = ['CasaLista', 'VentaDirecta', 'Broker', 'Otro'] as const

/** The origin the system sets for invited users; kept when editing one. */
export const INVITATION_ORIGIN = 'invitación'

/** Validity options with their labels (SPEC §5). */
export const VIGENCIA_OPTIONS = [
  { value: '1', label: '1 año' },
  { value: '5', label: '5 años' },
  { value: '10', label: '10 años' },
] as const

/** The admin user form: vigencia is a select value ('1', '5' or '10'). */
export const adminUserSchema = z.object({
  nombre: z.string().trim().min(3, 'El nombre debe tener al menos 3 caracteres'),
  email: z
    .string()
    .trim()
    .refine((v) => v === '' || z.email().safeParse(v).success, 'Email inválido'),
  origen: z.string().refine((v) => (ADMIN_ORIGINS as readonly string[]).includes(v) || v === INVITATION_ORIGIN, 'Selecciona un origen'),
  vigencia: z.enum(['1', '5', '10'], { error: 'Selecciona una vigencia' }),
})

/** Values of the admin user form. */
export type AdminUserValues = z.infer<typeof adminUserSchema>

/** Defaults of a new user (SPEC §5: origen Otro, vigencia '1'). */
export const NEW_USER_DEFAULTS: AdminUserValues = { nombre: '', email: '', origen: 'Otro', vigencia: '1' }

/** The partner creation form (SPEC §5). */
export const partnerSchema = z.object({
  partnerName: z.string().trim().min(3, 'El nombre del socio debe tener al menos 3 caracteres'),
  domain: z.string().trim().min(3, 'El dominio es requerido'),
  createdBy: z.string().trim(),
  notes: z.string().trim(),
})

/** Values of the partner form. */
export type PartnerValues = z.infer<typeof partnerSchema>

/** The form that records an ARCO request received by e-mail. */
export const arcoRequestSchema = z.object({
  profileId: z.string().trim().min(1, 'El ID de perfil es requerido'),
  type: z.enum(['acceso', 'rectificacion', 'cancelacion', 'oposicion'], { error: 'Selecciona el tipo de solicitud' }),
  details: z.string().trim().min(5, 'Describe la solicitud (de 5 a 2000 caracteres)').max(2000, 'Describe la solicitud (de 5 a 2000 caracteres)'),
})

/** Values of the ARCO request form. */
export type ArcoRequestValues = z.infer<typeof arcoRequestSchema>

/** The answer given when an ARCO request is closed. */
export const arcoResolutionSchema = z
  .string()
  .trim()
  .min(5, 'Escribe la respuesta dada (de 5 a 2000 caracteres)')
  .max(2000, 'Escribe la respuesta dada (de 5 a 2000 caracteres)')
