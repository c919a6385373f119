import { Fingerprint, Hash, Lock, QrCode } from 'lucide-react'
import { OnboardingLink } from './onboarding-link'
import { SectionHeading } from './section-heading'

const pillars = [
  {
    icon: Fingerprint,
    title: 'Validación biométrica',
    text: 'Reconocimiento facial y revisión de tu identificación oficial, realizados una sola vez por un proveedor especializado.',
  },
  {
    icon: Hash,
    title: 'ID único',
    text: 'Recibes un identificador personal con formato PS-nnnn-nnnn-nn que te acompaña en todas tus operaciones.',
  },
  {
    icon: QrCode,
    title: 'Código QR verificable',
    text: 'Cualquier persona puede escanear tu QR y confirmar en segundos que tu identidad está validada y vigente.',
  },
  {
    icon: Lock,
    title: 'Tus datos, bajo tu control',
    text: 'Tu información solo se comparte con las plataformas que tú autorizas. Nunca guardamos las imágenes de tu rostro.',
  },
]

/** What a secure profile is (anchor #que-es). */
export function WhatIsSection() {
  return (
    <section id="que-es" className="mx-auto max-w-7xl px-4 py-20">
      <SectionHeading eyebrow="¿Qué es?" title="¿Qué es un Perfil Seguro?">
        Es tu identidad digital verificada para el mundo inmobiliario: un perfil que demuestra que eres quien dices ser, listo para
        compartirse con compradores, vendedores, brokers y plataformas en cada operación.
      </SectionHeading>
      <div className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {pillars.map(({ icon: Icon, title, text }) => (
          <div key={title} className="card border border-base-300 bg-base-100 shadow-sm transition hover:-translate-y-1 hover:shadow-md">
            <div className="card-body">
              <div className="flex size-12 items-center justify-center rounded-xl bg-primary/10 text-primary">
                <Icon className="size-6" aria-hidden />
              </div>
              <h3 className="card-title mt-2 text-lg">{title}</h3>
              <p className="text-sm text-base-content/70">{text}</p>
            </div>
          </div>
        ))}
      </div>
      <div className="mt-10 text-center">
        <OnboardingLink size="lg">Obtener mi Perfil Seguro</OnboardingLink>
      </div>
    </section>
  )
}
