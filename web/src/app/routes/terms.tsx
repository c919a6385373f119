import { LegalDocument } from '@/features/legal/components/legal-document'
import { Terms, type TermsPlan } from '@/features/legal/components/terms'
import { pricesShown, usePlans, type PlansResponse } from '@/features/payments/api/get-plans'
import { usePageTitle } from '@/lib/page-title'
import { PAID_PLANS } from '@/lib/plans'

/**
 * The paid plans the terms name: none (null) when the server says payments are off; the plans
 * for sale once GET /api/plans answers; the app's static plans while it loads or if it failed.
 */
export function termsPlans(plans: PlansResponse | undefined): TermsPlan[] | null {
  if (!pricesShown(plans)) return null
  if (plans) return plans.plans.filter((p) => p.price > 0).map(({ name, price, years }) => ({ name, price, years }))
  return [
    { ...PAID_PLANS.one_year, years: 1 },
    { ...PAID_PLANS.five_years, years: 5 },
  ]
}

/** /terminos: the terms and conditions, drawn from GET /api/legal and GET /api/plans. */
export function TermsRoute() {
  usePageTitle('Términos y condiciones')
  const plans = usePlans()
  return (
    <LegalDocument title="Términos y condiciones">{(info) => <Terms info={info} plans={termsPlans(plans.data)} />}</LegalDocument>
  )
}
