import { BenefitsSection } from '@/features/landing/components/benefits-section'
import { DigitalPassSection } from '@/features/landing/components/digital-pass-section'
import { FinalCtaSection } from '@/features/landing/components/final-cta-section'
import { HeroSection } from '@/features/landing/components/hero-section'
import { HowItWorksSection } from '@/features/landing/components/how-it-works-section'
import { PartnersSection } from '@/features/landing/components/partners-section'
import { PricingSection } from '@/features/landing/components/pricing-section'
import { WhatIsSection } from '@/features/landing/components/what-is-section'
import { pricesShown, usePlans } from '@/features/payments/api/get-plans'
import { usePageTitle } from '@/lib/page-title'

/** The landing page (SPEC §2 'Landing'), sections in the spec's order; no prices while payments are off. */
export function LandingRoute() {
  usePageTitle('Identidad validada, confianza garantizada')
  const plans = usePlans()
  return (
    <>
      <HeroSection />
      <PartnersSection />
      <WhatIsSection />
      <DigitalPassSection />
      <HowItWorksSection />
      {pricesShown(plans.data) && <PricingSection />}
      <BenefitsSection />
      <FinalCtaSection />
    </>
  )
}
