import { useSearchParams } from 'react-router-dom'
import { RegisterScreen } from '@/features/auth/components/register-screen'
import { SimplifiedNotice } from '@/features/legal/components/simplified-notice'
import { pricesShown, usePlans } from '@/features/payments/api/get-plans'
import { usePageTitle } from '@/lib/page-title'
import { paidPlanCode } from '@/lib/plans'

/** /register, with the paid plan chosen on the landing page (?plan=one_year|five_years; other values are ignored). */
export function RegisterRoute() {
  usePageTitle('Registro')
  const [params] = useSearchParams()
  const plans = usePlans()
  return <RegisterScreen plan={paidPlanCode(params.get('plan'))} showPlan={pricesShown(plans.data)} notice={<SimplifiedNotice />} />
}
