import { ScanFace, Share2, UserPlus, Wallet } from 'lucide-react'
import { SectionHeading } from './section-heading'

const steps = [
  {
    icon: UserPlus,
    title: 'Regístrate',
    text: 'Captura tu nombre, correo y número de WhatsApp. Te enviamos un código para confirmar que el teléfono es tuyo.',
  },
  {
    icon: ScanFace,
    title: 'Valida tu identidad',
    text: 'Toma una selfie y una foto de tu identificación oficial. La verificación biométrica se completa en segundos.',
  },
  {
    icon: Wallet,
    title: 'Recibe tu Perfil Seguro',
    text: 'Obtén tu ID único, tu código QR y tu pase digital para Apple Wallet o Google Wallet.',
  },
  {
    icon: Share2,
    title: 'Compártelo con confianza',
    text: 'Presenta tu perfil en cada operación e invita a tus clientes y brokers a validarse también.',
  },
]

/** The four steps from sign-up to a shareable profile. */
export function HowItWorksSection() {
  return (
    <section className="mx-auto max-w-7xl px-4 py-20" aria-labelledby="como-funciona">
      <SectionHeading eyebrow="Cómo funciona" title="Tu identidad validada en cuatro pasos">
        Un proceso sencillo, 100% digital y sin filas. Lo haces desde tu celular en unos minutos.
      </SectionHeading>
      <ol className="mt-12 grid gap-6 md:grid-cols-2 lg:grid-cols-4" id="como-funciona">
        {steps.map(({ icon: Icon, title, text }, index) => (
          <li key={title} className="relative rounded-2xl border border-base-300 bg-base-100 p-6 shadow-sm">
            <span className="absolute right-5 top-4 text-5xl font-black text-primary/10" aria-hidden>
              {index + 1}
            </span>
            <div className="flex size-12 items-center justify-center rounded-full bg-primary text-primary-content">
              <Icon className="size-6" aria-hidden />
            </div>
            <h3 className="mt-4 text-lg font-semibold">
              <span className="sr-only">Paso {index + 1}: </span>
              {title}
            </h3>
            <p className="mt-2 text-sm text-base-content/70">{text}</p>
          </li>
        ))}
      </ol>
    </section>
  )
}
