import { Check, Star } from 'lucide-react'
import { cn } from '@/lib/cn'
import { formatPlanPrice, pricingPlans } from '../data/pricing-plans'
import { OnboardingLink } from './onboarding-link'
import { SectionHeading } from './section-heading'

/** The three plans of SPEC §9 (anchor #precios). */
export function PricingSection() {
  return (
    <section id="precios" className="bg-base-200/60">
      <div className="mx-auto max-w-7xl px-4 py-20">
        <SectionHeading eyebrow="Precios" title="Elige la vigencia que necesitas">
          Pago único, sin mensualidades. Tu validación es válida en todo el ecosistema durante el periodo que elijas.
        </SectionHeading>
        <div className="mt-12 grid items-stretch gap-6 lg:grid-cols-3">
          {pricingPlans.map((plan) => (
            <article
              key={plan.name}
              className={cn(
                'card relative border bg-base-100',
                plan.featured ? 'border-primary shadow-xl ring-2 ring-primary lg:-translate-y-3' : 'border-base-300 shadow-sm',
              )}
              data-testid="pricing-plan"
            >
              {plan.featured && (
                <span className="badge badge-primary absolute -top-3 left-1/2 -translate-x-1/2 gap-1 px-3 py-3 font-semibold">
                  <Star className="size-3.5" aria-hidden />
                  Recomendado
                </span>
              )}
              <div className="card-body">
                <h3 className="text-xl font-semibold">{plan.name}</h3>
                <p className="min-h-10 text-sm text-base-content/70">{plan.description}</p>
                <p className="mt-2 flex items-baseline gap-1">
                  <span className="text-4xl font-extrabold">{formatPlanPrice(plan)}</span>
                  {plan.price > 0 && <span className="text-base-content/70">{plan.currency}</span>}
                </p>
                <ul className="mt-4 flex-1 space-y-3 text-sm">
                  {plan.features.map((feature) => (
                    <li key={feature} className="flex gap-2">
                      <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
                      {feature}
                    </li>
                  ))}
                </ul>
                <OnboardingLink plan={plan.code} variant={plan.featured ? 'default' : 'outline'} className="mt-6 w-full">
                  {plan.price === 0 ? 'Comenzar gratis' : `Elegir ${plan.name}`}
                </OnboardingLink>
              </div>
            </article>
          ))}
        </div>
      </div>
    </section>
  )
}
