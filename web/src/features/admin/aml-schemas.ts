import { z } from '@/lib/zod'

// The forms of "Umbrales LFPIORPI", with the server's Spanish messages (aml.UMA.Validate,
// aml.Threshold.Validate); the server checks the same again. Numbers stay text while typed and
// become numbers on submit (the pesos stay text: the API takes "117.31", never a float).

const source = (message: string) => z.string().trim().min(1, message)
const wholeUma = z.string().trim().regex(/^-?[0-9]+$/, 'Escribe un número entero de UMA')

/** A year's UMA. */
export const umaSchema = z.object({
  year: z
    .string()
    .trim()
    .regex(/^[0-9]{4}$/, 'El año debe estar entre 2016 y 2100')
    .refine((v) => Number(v) >= 2016 && Number(v) <= 2100, 'El año debe estar entre 2016 y 2100'),
  dailyValue: z
    .string()
    .trim()
    .regex(/^-?[0-9]+(\.[0-9]{1,2})?$/, 'Escribe el valor diario en pesos con hasta dos decimales, por ejemplo 117.31')
    .refine((v) => Number(v) > 0, 'El valor diario de la UMA debe ser mayor que cero'),
  source: source('Indica la fuente del valor (comunicado del INEGI o publicación en el DOF)'),
})

/** The UMA form's values. */
export type UmaFormValues = z.infer<typeof umaSchema>

/** An activity's thresholds from a date. */
export const amlThresholdSchema = z
  .object({
    activity: z.enum(['compraventa', 'intermediacion', 'desarrollo', 'arrendamiento'], 'Actividad no válida'),
    validFrom: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Indica desde qué fecha aplica el umbral'),
    identificationUma: wholeUma.refine((v) => Number(v) >= 0, 'El umbral de identificación no puede ser negativo (0 significa siempre)'),
    identificationStrict: z.boolean(),
    avisoUma: wholeUma.refine((v) => Number(v) > 0, 'El umbral de aviso debe ser mayor que cero'),
    avisoStrict: z.boolean(),
    monthly: z.boolean(),
    source: source('Indica la fuente legal (ley, artículo, fracción y fecha del DOF)'),
  })
  .refine((v) => Number(v.identificationUma) <= Number(v.avisoUma), {
    path: ['identificationUma'],
    message: 'El umbral de identificación no puede ser mayor que el de aviso',
  })

/** The thresholds form's values. */
export type AmlThresholdFormValues = z.infer<typeof amlThresholdSchema>
