import { MainLayout } from '@/components/layout/main-layout'
import { pricesShown, usePlans } from '@/features/payments/api/get-plans'

/** The layout of every screen, told whether the site speaks of prices (GET /api/plans). */
export function AppLayout() {
  const plans = usePlans()
  return <MainLayout showPricing={pricesShown(plans.data)} />
}
