import { Building2, Home, LineChart, MessageCircle, ScanFace, Smartphone } from 'lucide-react'

const partners = [
  { icon: Home, name: 'CasaLista', role: 'Portal de inmuebles' },
  { icon: Building2, name: 'VentaDirecta', role: 'Venta directa' },
  { icon: LineChart, name: 'ValorCasa', role: 'Avalúos en línea' },
  { icon: ScanFace, name: 'Biometría', role: 'Reconocimiento facial' },
  { icon: MessageCircle, name: 'WhatsApp', role: 'Códigos de acceso' },
  { icon: Smartphone, name: 'Wallet', role: 'Apple y Google' },
]

/** The partner platforms and technologies behind the product. */
export function PartnersSection() {
  return (
    <section className="border-y border-base-300 bg-base-200/60" aria-labelledby="partners-title">
      <div className="mx-auto max-w-7xl px-4 py-10">
        <p id="partners-title" className="text-center text-sm font-medium text-base-content/70">
          Respaldado por el ecosistema inmobiliario y tecnología de clase mundial
        </p>
        <ul className="mt-6 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-6">
          {partners.map(({ icon: Icon, name, role }) => (
            <li key={name} className="flex items-center gap-3 rounded-xl px-2 py-2">
              <Icon className="size-7 shrink-0 text-base-content/70" aria-hidden />
              <div className="min-w-0">
                <p className="font-semibold">{name}</p>
                <p className="text-xs text-base-content/70">{role}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}
