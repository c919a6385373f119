import { Clock, Handshake, Repeat, ShieldAlert, ShieldCheck, Users } from 'lucide-react'
import { SectionHeading } from './section-heading'

const advantages = [
  { icon: ShieldAlert, title: 'Menos fraudes', text: 'Sabes con quién tratas antes de firmar, apartar o entregar las llaves.' },
  { icon: Clock, title: 'Operaciones más rápidas', text: 'Evita revisar documentos una y otra vez: la identidad ya está validada.' },
  { icon: Repeat, title: 'Valida una sola vez', text: 'Tu perfil funciona en todas las plataformas aliadas durante su vigencia.' },
  { icon: Users, title: 'Invita a tu red', text: 'Con tu verificación completa puedes invitar a clientes y brokers a validarse.' },
  { icon: ShieldCheck, title: 'Privacidad primero', text: 'Tratamos tus datos conforme a la ley mexicana y nunca guardamos tus imágenes biométricas.' },
  { icon: Handshake, title: 'Más confianza', text: 'Los perfiles validados generan más interés y cierran tratos con mayor seguridad.' },
]

/** The highlighted benefits (anchor #ventajas). */
export function BenefitsSection() {
  return (
    <section id="ventajas" className="mx-auto max-w-7xl px-4 py-20">
      <SectionHeading eyebrow="Ventajas" title="Beneficios de tener tu Perfil Seguro">
        Para compradores, vendedores y brokers que quieren operar con la tranquilidad de una identidad comprobada.
      </SectionHeading>
      <div className="mt-12 grid gap-x-8 gap-y-10 sm:grid-cols-2 lg:grid-cols-3">
        {advantages.map(({ icon: Icon, title, text }) => (
          <div key={title} className="flex gap-4">
            <div className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-secondary/10 text-secondary">
              <Icon className="size-6" aria-hidden />
            </div>
            <div>
              <h3 className="font-semibold">{title}</h3>
              <p className="mt-1 text-sm text-base-content/70">{text}</p>
            </div>
          </div>
        ))}
      </div>
    </section>
  )
}
