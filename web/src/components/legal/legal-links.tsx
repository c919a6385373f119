import type { ReactNode } from 'react'
import { Link } from 'react-router-dom'

/** Where the privacy notice lives (app/router.tsx). */
export const PRIVACY_PATH = '/privacidad'

/** Where the terms and conditions live (app/router.tsx). */
export const TERMS_PATH = '/terminos'

/**
 * A link to a legal page under a form that collects personal data. It opens in a new tab:
 * following it in the same tab would throw away the half-filled form.
 */
export function LegalPageLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} target="_blank" rel="noopener" className="link link-primary">
      {children}
      <span className="sr-only"> (se abre en una pestaña nueva)</span>
    </Link>
  )
}

/**
 * The acceptance line under a form where a person gives us their data, with both legal pages.
 * lead is how the sentence starts: 'Al registrarte', 'Al aceptar la invitación'.
 */
export function AcceptanceNote({ lead, className }: { lead: string; className?: string }) {
  return (
    <p className={className ?? 'text-xs leading-relaxed'}>
      {lead} aceptas los <LegalPageLink to={TERMS_PATH}>Términos y condiciones</LegalPageLink> y confirmas que leíste el{' '}
      <LegalPageLink to={PRIVACY_PATH}>Aviso de privacidad</LegalPageLink>. Tus datos solo se comparten con las plataformas que
      tú autorices.
    </p>
  )
}
