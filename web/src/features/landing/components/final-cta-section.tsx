import { Link } from 'react-router-dom'
import { ArrowRight } from 'lucide-react'
import { OnboardingLink } from './onboarding-link'

/** The closing call to action. */
export function FinalCtaSection() {
  return (
    <section className="px-4 pb-20" aria-labelledby="cta-title">
      <div className="mx-auto max-w-5xl overflow-hidden rounded-3xl bg-gradient-to-br from-primary to-secondary px-6 py-14 text-center text-primary-content shadow-xl sm:px-12">
        <h2 id="cta-title" className="text-3xl font-bold tracking-tight sm:text-4xl">
          Da el primer paso hacia operaciones más seguras
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-lg opacity-90">
          Únete a quienes ya compran, venden y rentan con una identidad validada. El registro toma menos de cinco minutos.
        </p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Link to="/register" className="btn btn-lg border-0 bg-base-100 text-primary hover:bg-base-200">
            Validar mi identidad ahora
            <ArrowRight className="size-5" aria-hidden />
          </Link>
          <OnboardingLink variant="outline" size="lg" className="border-primary-content text-primary-content hover:bg-primary-content hover:text-primary">
            Comenzar mi validación ahora
          </OnboardingLink>
        </div>
      </div>
    </section>
  )
}
