import { Link, useLocation } from 'react-router-dom'
import { Code2, ShieldCheck } from 'lucide-react'
import { buttonClass } from '@/components/ui/button'
import { PRIVACY_PATH, TERMS_PATH } from '@/components/legal/legal-links'
import { PRODUCT_NAME, SUPPORT_EMAIL } from '@/lib/config'
import { SectionLinkList } from './section-link-list'
import type { SectionLink } from './section-links'

/** The site footer of SPEC §2, with the given landing anchors; left out of print. */
export function Footer({ sectionLinks }: { sectionLinks: readonly SectionLink[] }) {
  const { pathname } = useLocation()
  const year = new Date().getFullYear()

  return (
    <footer className="border-t border-base-300 bg-base-200 print:hidden">
      {pathname !== '/integration' && (
        <div className="border-b border-base-300 bg-primary/5" data-testid="developer-banner">
          <div className="mx-auto flex max-w-7xl flex-col items-start gap-3 px-4 py-5 sm:flex-row sm:items-center sm:justify-between">
            <div className="flex items-center gap-3">
              <Code2 className="size-6 shrink-0 text-primary" aria-hidden />
              <p className="text-sm">
                <span className="font-semibold">¿Eres desarrollador?</span> Integra el widget de validación universal de{' '}
                {PRODUCT_NAME} en tu plataforma inmobiliaria.
              </p>
            </div>
            <Link to="/integration" className={buttonClass('outline', 'sm', 'btn-primary')}>
              Ver documentación de integración
            </Link>
          </div>
        </div>
      )}
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 md:grid-cols-4">
        <div className="space-y-3 md:col-span-2">
          <Link to="/" className="flex items-center gap-2 text-lg font-bold text-primary">
            <ShieldCheck className="size-6" aria-hidden />
            {PRODUCT_NAME}
          </Link>
          <p className="max-w-md text-sm text-base-content/70">
            Valida tu identidad una sola vez y compártela con confianza en cada operación inmobiliaria. Un perfil verificado,
            con ID único, código QR y pase digital, reconocido por las plataformas de nuestro ecosistema.
          </p>
        </div>
        <div>
          <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-base-content/70">Enlaces rápidos</h2>
          <SectionLinkList links={sectionLinks} className="space-y-2 text-sm" linkClassName="link link-hover" />
        </div>
        <div>
          <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-base-content/70">Legal</h2>
          <ul className="space-y-2 text-sm">
            <li>
              <Link to={TERMS_PATH} className="link link-hover">
                Términos y condiciones
              </Link>
            </li>
            <li>
              <Link to={PRIVACY_PATH} className="link link-hover">
                Aviso de privacidad
              </Link>
            </li>
            <li>
              <a href={`mailto:${SUPPORT_EMAIL}`} className="link link-hover">
                Contacto técnico
              </a>
            </li>
            <li>
              <Link to="/admin" className="link link-hover">
                Administración
              </Link>
            </li>
          </ul>
        </div>
      </div>
      <div className="border-t border-base-300">
        <p className="mx-auto max-w-7xl px-4 py-5 text-center text-xs text-base-content/70">
          © {year} {PRODUCT_NAME}. Todos los derechos reservados.
        </p>
      </div>
    </footer>
  )
}
