import { Link } from 'react-router-dom'
import { ArrowRight, BadgeCheck, Fingerprint, IdCard, MessageCircle, ScanFace } from 'lucide-react'
import { buttonClass } from '@/components/ui/button'

/** The landing statistics of SPEC §1. */
export const landingStats = [
  { value: '99.8%', label: 'Precisión en la validación' },
  { value: '100+', label: 'Empresas conectadas' },
  { value: 'Menos de 3s', label: 'Tiempo de verificación' },
  { value: '24/7', label: 'Disponibilidad' },
] as const

const checks = [
  { icon: MessageCircle, label: 'WhatsApp confirmado', detail: 'Código de un solo uso' },
  { icon: ScanFace, label: 'Reconocimiento facial', detail: 'Prueba de vida aprobada' },
  { icon: IdCard, label: 'Identificación oficial', detail: 'INE validada' },
]

/** Headline, calls to action, statistics and a verification preview. */
export function HeroSection() {
  return (
    <section className="relative overflow-hidden bg-gradient-to-b from-primary/10 via-base-100 to-base-100">
      <div className="pointer-events-none absolute -left-32 top-10 size-96 rounded-full bg-primary/10 blur-3xl" />
      <div className="pointer-events-none absolute -right-24 bottom-0 size-80 rounded-full bg-secondary/10 blur-3xl" />
      <div className="relative mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 lg:grid-cols-2 lg:py-24">
        <div>
          <span className="badge badge-primary badge-soft gap-1.5 py-3">
            <BadgeCheck className="size-4" aria-hidden />
            Validación de identidad para el sector inmobiliario
          </span>
          <h1 className="mt-5 text-4xl font-extrabold tracking-tight sm:text-5xl lg:text-6xl">
            Identidad validada, <span className="text-primary">confianza garantizada</span>
          </h1>
          <p className="mt-5 max-w-xl text-lg text-base-content/70">
            Compradores, vendedores y brokers validan su identidad una sola vez y obtienen un perfil digital con ID único,
            código QR y pase para tu wallet. Cierra operaciones inmobiliarias sabiendo con quién tratas.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Link to="/register" className={buttonClass('default', 'lg')}>
              Validar mi identidad ahora
              <ArrowRight className="size-5" aria-hidden />
            </Link>
            <a href="#que-es" className={buttonClass('outline', 'lg')}>
              Saber más
            </a>
          </div>
          <dl className="mt-10 grid grid-cols-2 gap-3 sm:grid-cols-4">
            {landingStats.map((stat) => (
              <div key={stat.label} className="rounded-xl border border-base-300 bg-base-100/70 px-2 py-4 text-center shadow-sm">
                <dt className="sr-only">{stat.label}</dt>
                <dd className="whitespace-nowrap text-2xl font-bold text-primary lg:text-xl">{stat.value}</dd>
                <dd className="mt-1 text-xs text-base-content/70">{stat.label}</dd>
              </div>
            ))}
          </dl>
        </div>

        <div className="relative mx-auto w-full max-w-md" aria-hidden>
          <div className="rounded-3xl border border-base-300 bg-base-100 p-6 shadow-2xl">
            <div className="flex items-center gap-3">
              <div className="flex size-12 items-center justify-center rounded-2xl bg-primary/10 text-primary">
                <Fingerprint className="size-7" />
              </div>
              <div>
                <p className="font-semibold">Verificación de identidad</p>
                <p className="text-sm text-base-content/70">Completada en 2.4 segundos</p>
              </div>
            </div>
            <ul className="mt-6 space-y-3">
              {checks.map(({ icon: Icon, label, detail }) => (
                <li key={label} className="flex items-center gap-3 rounded-xl bg-base-200 p-3">
                  <Icon className="size-5 text-primary" />
                  <div className="flex-1">
                    <p className="text-sm font-medium">{label}</p>
                    <p className="text-xs text-base-content/70">{detail}</p>
                  </div>
                  <BadgeCheck className="size-5 text-success" />
                </li>
              ))}
            </ul>
            <div className="mt-6 rounded-xl bg-primary p-4 text-primary-content">
              <p className="text-xs uppercase tracking-widest">Perfil Seguro emitido</p>
              <p className="mt-1 font-mono text-lg font-semibold">PS-1234-5678-90</p>
            </div>
          </div>
        </div>
      </div>
    </section>
  )
}
