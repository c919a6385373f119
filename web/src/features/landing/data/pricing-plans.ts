import { PAID_PLANS, type PaidPlanCode } from '@/lib/plans'

/** A pricing plan as SPEC §3 describes it. */
export type PricingPlan = {
  /** The paid plan the button carries to registration; none for the free one. */
  code?: PaidPlanCode
  name: string
  /** Price in currency units; 0 is free. */
  price: number
  currency: 'MXN'
  description: string
  features: string[]
  featured: boolean
}

/** The three plans of SPEC §9. */
export const pricingPlans: PricingPlan[] = [
  {
    name: 'Validación por aliado',
    price: 0,
    currency: 'MXN',
    description: 'Valida tu identidad a través de CasaLista o por invitación de tu broker.',
    features: [
      'Vigencia de 1 año',
      'ID único y código QR',
      'Pase para Apple Wallet y Google Wallet',
      'Válido en la plataforma que te invitó',
    ],
    featured: false,
  },
  {
    code: 'one_year',
    ...PAID_PLANS.one_year,
    currency: 'MXN',
    description: 'Tu identidad validada para todas tus operaciones del año.',
    features: [
      'Vigencia de 1 año',
      'Acceso a todas las plataformas del ecosistema',
      'ID único, QR dinámico y pase digital',
      'Invita a clientes y brokers',
    ],
    featured: true,
  },
  {
    code: 'five_years',
    ...PAID_PLANS.five_years,
    currency: 'MXN',
    description: 'Valida una vez y olvídate de repetir el proceso por cinco años.',
    features: [
      'Vigencia de 5 años',
      'Acceso a todas las plataformas del ecosistema',
      'ID único, QR dinámico y pase digital',
      'Incluye soporte técnico prioritario',
    ],
    featured: false,
  },
]

/** '$299 MXN' or 'Gratis'. */
export function formatPlanPrice(plan: PricingPlan): string {
  return plan.price === 0 ? 'Gratis' : `$${plan.price.toLocaleString('es-MX')}`
}
