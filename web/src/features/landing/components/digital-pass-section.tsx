import { CheckCircle2 } from 'lucide-react'
import { DigitalIdCard } from '@/components/digital-id-card/digital-id-card'
import { SectionHeading } from './section-heading'

/** The demo card's name (DECISIONS.md). */
export const DEMO_NAME = 'María Fernanda López'

/** The demo card's profile ID. */
export const DEMO_ID = 'PS-1234-5678-90'

const benefits = [
  'Agrégalo a Apple Wallet o Google Wallet y llévalo siempre en tu teléfono.',
  'Muestra tu código QR y deja que la otra parte confirme tu identidad al instante.',
  'Consulta la vigencia de tu validación en todo momento.',
  'Funciona en todas las plataformas del ecosistema: CasaLista, VentaDirecta y ValorCasa.',
]

function oneYearFromNow(): Date {
  const date = new Date()
  date.setFullYear(date.getFullYear() + 1)
  return date
}

/** The digital pass with a demo card (anchor #beneficios). */
export function DigitalPassSection() {
  return (
    <section id="beneficios" className="bg-base-200/60">
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 py-20 lg:grid-cols-2">
        <div>
          <SectionHeading align="left" eyebrow="Pase digital" title="Tu identidad verificada, siempre en tu bolsillo">
            Al validar tu identidad recibes un pase digital con tu nombre, tu ID único y un código QR verificable.
          </SectionHeading>
          <ul className="mt-8 space-y-4">
            {benefits.map((benefit) => (
              <li key={benefit} className="flex gap-3">
                <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-success" aria-hidden />
                <span className="text-base-content/80">{benefit}</span>
              </li>
            ))}
          </ul>
        </div>
        <div className="flex justify-center">
          <DigitalIdCard name={DEMO_NAME} id={DEMO_ID} verified expirationDate={oneYearFromNow()} />
        </div>
      </div>
    </section>
  )
}
