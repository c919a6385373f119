/** The landing anchors shown in the header (desktop) and the footer. */
export const sectionLinks = [
  { hash: '#que-es', label: '¿Qué es?' },
  { hash: '#beneficios', label: 'Beneficios' },
  { hash: '#precios', label: 'Precios' },
] as const

/** The href of a landing anchor: the bare hash on the landing, '/#…' elsewhere. */
export function sectionHref(hash: string, pathname: string): string {
  return pathname === '/' ? hash : `/${hash}`
}
